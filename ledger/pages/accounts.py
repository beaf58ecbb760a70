"""Sign up, log in, log out and change the password: Django's auth views and forms, as phone pages.

Log-in, log-out and the password change are Django's own views with our templates; sign-up is Django's
``UserCreationForm`` (its password validators, its case-insensitive check of the name) whose account is
written by ``services.account_create``, the same service as ``POST /api/v1/accounts/``, and counted by
the same per-address throttle. Repeated wrong passwords are django-axes' (settings): its lockout answer is
a page in the page's language (``AXES_LOCKOUT_CALLABLE``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

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


class PasswordChange(auth_views.PasswordChangeView):
    template_name = "ledger/accounts/password_change.html"
    success_url = reverse_lazy("home")

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


urlpatterns = [
    path("signup/", sign_up, name="sign-up"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="ledger/accounts/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", PasswordChange.as_view(), name="password-change"),
    path("reset/<uidb64>/<token>/", PasswordReset.as_view(), name="password-reset"),
]
