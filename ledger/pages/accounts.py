"""Sign up, log in, log out and change the password: Django's auth views and forms, as phone pages.

Log-in, log-out, the password change and the reset by mail are Django's own views with our templates (the
reset by mail only when mail is configured: docs/security.md, "A forgotten password"); sign-up is Django's
``UserCreationForm`` (its password validators, its case-insensitive check of the name) whose account is
written by ``services.account_create``, the same service as ``POST /api/v1/accounts/``, and counted by
the same per-address throttle. Repeated wrong passwords are django-axes' (settings): its lockout answer is
a page in the page's language (``AXES_LOCKOUT_CALLABLE``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle

from calculator.engine import EngineError

from .. import services
from ..api import SignUpThrottle
from .refusals import refusal_message

# The account was just created with this password: no need to check it again through every backend.
SIGN_UP_BACKEND = "django.contrib.auth.backends.ModelBackend"
# A refusal of the service names the API's field; the form's fields are Django's.
FORM_FIELD = {"username": "username", "password": "password1"}


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form: UserCreationForm[User] = UserCreationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        # a DRF throttle on a page: it reads only request.user and META, which an HttpRequest has too
        if not SignUpThrottle().allow_request(request, None):  # type: ignore[arg-type]
            form.add_error(None, _("Too many new accounts from this address: try again in an hour."))
            return render(request, "ledger/accounts/sign_up.html", {"form": form}, status=429)
        try:
            user = services.account_create(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except EngineError as error:
            form.add_error(FORM_FIELD.get(error.field), refusal_message(error))
        else:
            login(request, user, backend=SIGN_UP_BACKEND)
            return redirect(_next_page(request) or "home")
    status = 400 if form.errors else 200
    context = {"form": form, "next": _next_page(request)}
    return render(request, "ledger/accounts/sign_up.html", context, status=status)


def _next_page(request: HttpRequest) -> str:
    """Where to go after signing up (an invite link, say): a path on this site only, else nowhere."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
    return target if safe else ""


EMAIL_LABEL = gettext_lazy("E-mail address")


class EmailForm(forms.ModelForm[User]):
    """The account's optional e-mail address, Django's ``User.email``: where a reset link is mailed. Two
    accounts may share one; a reset asked for it mails each of them (Django's ``PasswordResetForm``)."""

    email = forms.EmailField(
        required=False,
        max_length=254,
        label=EMAIL_LABEL,
        help_text=gettext_lazy("Optional: a forgotten password's reset link is mailed here."),
    )

    class Meta:
        model = User
        fields = ("email",)


class PasswordChange(auth_views.PasswordChangeView):
    """The account page: the password, and beside it the e-mail address (``email_change``)."""

    template_name = "ledger/accounts/password_change.html"
    success_url = reverse_lazy("home")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        kwargs.setdefault("email_form", EmailForm(instance=self.request.user))  # type: ignore[arg-type]
        return super().get_context_data(**kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, gettext_lazy("Your password has been changed."))
        return response


class PasswordReset(auth_views.PasswordResetConfirmView):
    """A one-time link made by ``sczmj reset_password`` (no mail needed): Django's token, which stops
    working once the password changes or after ``PASSWORD_RESET_TIMEOUT``."""

    template_name = "ledger/accounts/password_reset.html"
    success_url = reverse_lazy("login")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, gettext_lazy("Your password has been changed."))
        return response


@login_required
@require_http_methods(["POST"])
def email_change(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]  # login_required
    form = EmailForm(request.POST, instance=user)
    if not form.is_valid():
        context = {"form": PasswordChangeForm(user), "email_form": form}
        return render(request, PasswordChange.template_name, context, status=400)
    form.save()
    messages.success(request, gettext_lazy("Your e-mail address has been saved."))
    return redirect("password-change")


def mail_configured() -> bool:
    """Whether this server sends mail (settings.py's ``RESET_BY_MAIL``: ``EMAIL_HOST`` is set)."""
    return bool(settings.RESET_BY_MAIL)


class LogIn(auth_views.LoginView):
    template_name = "ledger/accounts/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(reset_by_mail=mail_configured(), **kwargs)


class ResetMailClientThrottle(AnonRateThrottle):
    """Reset mails asked from one client address, counted in the shared cache like the API's throttles."""

    scope = "reset_mail_client"
    rate = "10/hour"


class ResetMailAddressThrottle(SimpleRateThrottle):
    """Reset mails asked for one e-mail address, from any client: its inbox is not flooded. Counted
    whether or not an account has the address, so being refused says nothing about one."""

    scope = "reset_mail_address"
    rate = "3/hour"

    def __init__(self, email: str) -> None:
        super().__init__()
        self.ident = hashlib.sha256(email.casefold().encode()).hexdigest()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


class MailConfigured:
    """A page that exists only when mail is configured: 404 without."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not mail_configured():
            raise Http404
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc,no-any-return]


class ForgotPasswordForm(PasswordResetForm):
    """Django's form, its address field named as on the account page."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].label = EMAIL_LABEL


class ForgotPassword(MailConfigured, auth_views.PasswordResetView):
    """Django's reset by mail: the same answer whether or not an account has the address (Django sends
    nothing when none has), the mail in the asker's language, its link the ``password-reset`` page."""

    template_name = "ledger/accounts/forgot_password.html"
    form_class = ForgotPasswordForm
    subject_template_name = "ledger/accounts/reset_mail_subject.txt"
    email_template_name = "ledger/accounts/reset_mail.txt"
    success_url = reverse_lazy("password-forgot-sent")

    @property
    def extra_email_context(self) -> dict[str, Any]:  # type: ignore[override]
        return {"days": settings.PASSWORD_RESET_TIMEOUT // (24 * 60 * 60)}

    def form_valid(self, form: Any) -> HttpResponse:
        # a DRF throttle on a page, as sign-up's: it reads only request.user and META
        throttles = (ResetMailClientThrottle(), ResetMailAddressThrottle(form.cleaned_data["email"]))
        if not all(throttle.allow_request(self.request, None) for throttle in throttles):  # type: ignore[arg-type]
            form.add_error(None, _("Too many reset mails asked for: try again in an hour."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


class ForgotPasswordSent(MailConfigured, auth_views.PasswordResetDoneView):
    template_name = "ledger/accounts/forgot_password_sent.html"


urlpatterns = [
    path("signup/", sign_up, name="sign-up"),
    path("login/", LogIn.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", PasswordChange.as_view(), name="password-change"),
    path("password/email/", email_change, name="email-change"),
    path("password/forgot/", ForgotPassword.as_view(), name="password-forgot"),
    path("password/forgot/sent/", ForgotPasswordSent.as_view(), name="password-forgot-sent"),
    path("reset/<uidb64>/<token>/", PasswordReset.as_view(), name="password-reset"),
]
