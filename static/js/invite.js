/* The invite page's copy buttons: each copies the link of the box it names. Without this script the
 * buttons stay hidden and the link is still there to select and copy by hand. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      const box = document.getElementById(button.dataset.copy);
      const label = button.textContent;
      button.hidden = false;
      button.addEventListener("click", function () {
        box.select();
        const done = function () {
          button.textContent = button.dataset.copied;
          window.setTimeout(function () { button.textContent = label; }, 2000);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(box.value).then(done, function () { document.execCommand("copy"); done(); });
        } else {
          document.execCommand("copy");
          done();
        }
      });
    });
  });
})();
