// 结算: the copy button puts the summary on the clipboard (the text box stays for copying by hand).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  function copied(button, status, ok) {
    status.textContent = ok ? button.dataset.copied : button.dataset.copyFailed;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var box = document.getElementById(button.dataset.copy);
    var status = document.querySelector("[data-copy-status]");
    var fallback = function () {
      box.focus();
      box.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
      copied(button, status, ok);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(box.value).then(function () { copied(button, status, true); }, fallback);
    } else {
      fallback();
    }
  });
})();
