/* The round page: record a complete kong at its third tap, without a separate "record" tap.
 *
 * Everything else is plain htmx on the form (every change posts the round and the server re-renders the
 * board with a preview). A kong needs no preview: once its maker and kind (and a direct kong's feeder)
 * are chosen, the script records it. It stops that change from reaching htmx, so the preview request
 * does not replace the recording one.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function chosen(form, name) {
    const input = form.querySelector("input[name=" + name + "]:checked");
    return input ? input.value : null;
  }

  function kongComplete(form) {
    if (chosen(form, "ev_type") !== "kong" || chosen(form, "kong_player") === null) return false;
    const kind = chosen(form, "kong_kind");
    return kind !== null && (kind !== "direct" || chosen(form, "kong_from") !== null);
  }

  document.addEventListener("change", function (event) {
    const form = event.target.closest("form[data-round-form]");
    if (!form || !kongComplete(form)) return;
    event.stopPropagation();
    // htmx sends the button that was clicked, and none was: say "record" in a field of its own.
    const action = document.createElement("input");
    action.type = "hidden";
    action.name = "action";
    action.value = "add";
    form.append(action);
    form.requestSubmit();
  }, true);
})();
