/* Offline scoring on the calculator page (docs/offline.md): with no network the hand is worked out on the
 * phone by the server's own Python, run by Pyodide in a worker (engine-worker.js), and drawn as the same
 * result card, marked as scored offline.
 *
 * 1. Once the page has loaded, ask the service worker whether Pyodide is stored; online, it stores what is
 *    missing (13 MB, once per Pyodide version). The status line (#offline-scoring) says "ready", or, with
 *    no network and nothing stored, plainly that offline scoring is not on this phone yet. With the phone's
 *    data saver on (navigator.connection.saveData) nothing is fetched by itself: the line says what the
 *    download costs and the button #offline-download starts it.
 * 2. With no network, a request of the calculator form (htmx) is not sent: its fields go to the worker,
 *    started on the first need (a few seconds; it starts at once when the page opens offline). A request
 *    that fails to reach the server is worked out the same way.
 * 3. The worker's answer (calculator.outcome.work_out_json) fills the card templates of
 *    calculator/_offline.html: {tokens}, data-if / data-unless, <template data-each>, data-tile(s). Every
 *    word comes from those templates (the server's translations) or from the engine itself.
 */
(function () {
  "use strict";

  const form = document.getElementById("hand-form");
  const status = document.getElementById("offline-scoring");
  const download = document.getElementById("offline-download");
  if (!form || !status || !status.dataset.engine) return;
  const engine = JSON.parse(status.dataset.engine);

  let stored = null; // null: not known yet; then true or false
  let worker = null;
  let booted = false;
  let failure = "";
  let latest = 0;
  let pending = null; // the last form asked for before the worker was up
  let asked = false; // the download was asked for on this page (the button, under the data saver)

  function say(text) {
    status.textContent = text;
    status.hidden = !text;
  }

  function askServiceWorker(fetchMissing) {
    return navigator.serviceWorker.ready.then(function (registration) {
      return new Promise(function (resolve) {
        const channel = new MessageChannel();
        channel.port1.onmessage = function (event) { resolve(Boolean(event.data.ready)); };
        registration.active.postMessage({ type: "offline-engine", fetch: fetchMissing }, [channel.port2]);
      });
    });
  }

  /* The data saver's say-so: a phone that asks to save data is not sent 6 MB it did not ask for. */
  function waitsToBeAsked() {
    return !asked && Boolean(navigator.connection && navigator.connection.saveData);
  }

  function prepare() {
    if (!("serviceWorker" in navigator)) return;
    askServiceWorker(false).then(function (ready) {
      if (ready || !navigator.onLine || waitsToBeAsked()) return ready;
      say(status.dataset.preparing);
      return askServiceWorker(true);
    }).then(function (ready) {
      stored = ready;
      const offer = !ready && navigator.onLine && waitsToBeAsked();
      download.hidden = !offer;
      say(ready ? status.dataset.ready : offer ? status.dataset.saver : navigator.onLine ? "" : status.dataset.missing);
      if (ready && (!navigator.onLine || pending)) start();
      if (!ready && pending) score(pending);
    });
  }

  function start() {
    if (worker) return;
    worker = new Worker(engine.worker, { type: "module" });
    worker.addEventListener("message", answered);
    worker.postMessage({ boot: { indexURL: engine.indexURL, bundle: engine.bundle } });
  }

  function answered(event) {
    const message = event.data;
    if (message.booted || (message.failed && message.id === undefined)) {
      booted = Boolean(message.booted);
      failure = message.failed ? status.dataset.failed + " " + message.failed : "";
      if (failure) say(failure);
      const fields = pending;
      pending = null;
      if (fields) score(fields);
      return;
    }
    if (message.id !== latest) return; // a later hand was asked for meanwhile
    if (message.failed) show(card("error", { error: status.dataset.failed + " " + message.failed }), null);
    else draw(JSON.parse(message.outcome));
  }

  function score(fields) {
    latest += 1;
    if (stored === false || failure) {
      pending = null;
      show(card("error", { error: failure || status.dataset.missing }), null);
    } else if (!booted) {
      pending = fields; // scored once the worker is up (or, when nothing is stored, said so)
      const hint = document.createElement("p");
      hint.className = "result__hint";
      hint.textContent = status.dataset.starting;
      show(hint, null, true);
      if (stored) start();
    } else {
      worker.postMessage({ id: latest, form: fields, language: document.documentElement.lang });
    }
  }

  function fieldsOf() {
    return Object.fromEntries(new FormData(form));
  }

  /* ---- drawing the card ---- */

  function lookup(values, path) {
    if (path === ".") return values;
    return path.split(".").reduce(function (value, key) { return value == null ? undefined : value[key]; }, values);
  }

  function truthy(value) {
    return Array.isArray(value) ? value.length > 0 : Boolean(value);
  }

  function tileElement(name) {
    const tile = document.createElement("span");
    tile.className = "tile tile--" + name.slice(1) + " tile--mini";
    const img = document.createElement("img");
    const pick = form.querySelector(".pick[data-tile='" + name + "']");
    img.src = form.dataset.tileBase + name + ".svg";
    img.alt = pick ? pick.getAttribute("aria-label") : name;
    img.width = 60;
    img.height = 80;
    tile.append(img);
    return tile;
  }

  /* In this order, so that no value put in is ever read as template: tokens, conditions, tiles, lists. */
  function fill(root, values) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      node.nodeValue = node.nodeValue.replace(/\{([\w.]+)\}/g, function (token, path) {
        const value = lookup(values, path);
        return value === undefined || value === null ? token : String(value);
      });
    }
    root.querySelectorAll("[data-if], [data-unless]").forEach(function (element) {
      const all = (element.dataset.if || "").split(" ").filter(Boolean);
      const none = (element.dataset.unless || "").split(" ").filter(Boolean);
      const shown = all.every(function (key) { return truthy(lookup(values, key)); }) &&
        none.every(function (key) { return !truthy(lookup(values, key)); });
      if (shown) {
        element.removeAttribute("data-if");
        element.removeAttribute("data-unless");
      } else {
        element.remove();
      }
    });
    root.querySelectorAll("[data-tile]").forEach(function (slot) {
      slot.replaceWith(tileElement(lookup(values, slot.dataset.tile)));
    });
    root.querySelectorAll("[data-tiles]").forEach(function (slot) {
      slot.replaceChildren.apply(slot, lookup(values, slot.dataset.tiles).map(tileElement));
      slot.removeAttribute("data-tiles");
    });
    root.querySelectorAll("template[data-each]").forEach(function (template) {
      (lookup(values, template.dataset.each) || []).forEach(function (item) {
        const copy = template.content.cloneNode(true);
        fill(copy, item);
        template.before(copy);
      });
      template.remove();
    });
    return root;
  }

  function card(name, values) {
    return fill(document.getElementById("offline-card-" + name).content.cloneNode(true), values);
  }

  function cardOf(outcome) {
    if (outcome.error) return card("error", outcome);
    if (outcome.missing) return card("missing-" + outcome.missing, outcome);
    if (outcome.score) return card(outcome.score.win ? "win" : "no-win", outcome.score);
    return card("waits", outcome.waits);
  }

  function draw(outcome) {
    show(cardOf(outcome), outcome.hand);
  }

  /* The card in place of #result, swapped by htmx so that the picker adopts a typed hand as it does online. */
  function show(content, hand, waiting) {
    const result = document.createElement("section");
    result.id = "result";
    result.className = "result result--offline";
    result.setAttribute("aria-live", "polite");
    if (hand) result.dataset.hand = JSON.stringify(hand);
    if (!waiting) {
      const mark = document.createElement("p");
      mark.className = "result__offline";
      mark.textContent = status.dataset.mark;
      result.append(mark);
    }
    result.append(content);
    window.htmx.swap(document.getElementById("result"), result.outerHTML, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
  }

  /* ---- when the network is missing ---- */

  form.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine) return;
    event.preventDefault();
    score(fieldsOf());
  });
  form.addEventListener("htmx:sendError", function () { score(fieldsOf()); });

  download.addEventListener("click", function () {
    asked = true;
    download.hidden = true;
    prepare();
  });

  window.addEventListener("offline", function () {
    if (stored === true) start();
    if (stored === false) say(status.dataset.missing);
    download.hidden = true; // nothing to download with no network
  });
  window.addEventListener("online", function () {
    if (stored !== true) prepare();
  });

  if (document.readyState === "complete") prepare();
  else window.addEventListener("load", prepare);
})();
