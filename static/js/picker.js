/* The tile picker: taps build the hand in the form's text fields, and htmx asks the server for the fan.
 *
 * The form's fields (concealed, win_tile, melds) stay the only state the server reads, in the notation
 * the page accepts when typed, so the page works the same with or without this script. The script keeps
 * the order of taps (the last tile tapped wins unless another is marked) and draws the hand at once;
 * after the server has read typed tiles, it adopts the server's reading (data-hand on #result), so the
 * only tile parser is the engine's.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  const SUITS = "mps";
  const MELD_SIZE = { pung: 3, kong_direct: 4, kong_added: 4, kong_concealed: 4 };
  const HAND_TILES = 14;

  function order(name) {
    return SUITS.indexOf(name[1]) * 9 + Number(name[0]);
  }

  function initPicker(form) {
    const base = form.dataset.tileBase;
    const fields = { concealed: form.elements.concealed, win: form.elements.win_tile, melds: form.elements.melds };
    const handView = form.querySelector("[data-hand-view]");
    const hint = form.querySelector("[data-hint]");
    const template = document.getElementById("tile-template");
    const labels = {};
    form.querySelectorAll(".pick").forEach(function (button) {
      labels[button.dataset.tile] = button.getAttribute("aria-label");
      // Without this script a tile posts the form as "add"; with it, htmx must not send the last tile clicked.
      button.type = "button";
      button.removeAttribute("name");
    });
    const meldLabels = {};
    const meldWords = {};
    form.querySelectorAll("[data-meld]").forEach(function (button) {
      meldLabels[button.dataset.meld] = button.textContent.trim();
      meldWords[button.dataset.meld] = button.dataset.word;
    });

    let state = { tiles: [], win: null, melds: [] };
    let meldMode = null;
    let marking = false;
    let typedPending = false;

    function mode() {
      const checked = form.querySelector("input[name=mode]:checked");
      return checked ? checked.value : "win";
    }

    function winTile() {
      if (mode() !== "win" || state.tiles.length === 0) return null;
      if (state.win && state.tiles.includes(state.win)) return state.win;
      return state.tiles[state.tiles.length - 1];
    }

    function counts() {
      const result = {};
      state.tiles.forEach(function (name) { result[name] = (result[name] || 0) + 1; });
      state.melds.forEach(function (meld) { result[meld.tile] = (result[meld.tile] || 0) + MELD_SIZE[meld.kind]; });
      return result;
    }

    function size() {
      return state.tiles.length + 3 * state.melds.length;
    }

    function writeFields() {
      const win = winTile();
      const concealed = state.tiles.slice();
      if (win) concealed.splice(concealed.lastIndexOf(win), 1);
      concealed.sort(function (a, b) { return order(a) - order(b); });
      fields.concealed.value = concealed.join("");
      if (fields.win) fields.win.value = win || "";
      fields.melds.value = state.melds.map(function (meld) { return meldWords[meld.kind] + meld.tile; }).join(" ");
    }

    function tileElement(name, extraClass) {
      const tile = template.content.firstElementChild.cloneNode(true);
      tile.classList.add("tile--" + name[1], extraClass);
      const img = tile.querySelector("img");
      img.src = base + name + ".svg";
      img.alt = labels[name] || name;
      return tile;
    }

    function button(className, data, children) {
      const element = document.createElement("button");
      element.type = "button";
      element.className = className;
      Object.keys(data).forEach(function (key) { element.dataset[key] = data[key]; });
      children.forEach(function (child) { element.append(child); });
      return element;
    }

    function drawHand() {
      const win = winTile();
      const concealed = state.tiles.slice();
      if (win) concealed.splice(concealed.lastIndexOf(win), 1);
      concealed.sort(function (a, b) { return order(a) - order(b); });
      const parts = [];
      state.melds.forEach(function (meld, index) {
        const label = document.createElement("span");
        label.className = "meld__label";
        label.textContent = meldLabels[meld.kind] || meld.kind;
        const tiles = document.createElement("span");
        tiles.className = "meld__tiles";
        for (let i = 0; i < MELD_SIZE[meld.kind]; i += 1) tiles.append(tileElement(meld.tile, "tile--small"));
        parts.push(button("meld", { removeMeld: String(index) }, [label, tiles]));
      });
      const held = document.createElement("span");
      held.className = "hand__concealed";
      concealed.forEach(function (name) {
        held.append(button("held", { remove: name }, [tileElement(name, "tile--small")]));
      });
      parts.push(held);
      if (win) {
        const box = document.createElement("span");
        box.className = "hand__win win-only";
        const label = document.createElement("span");
        label.className = "hand__winlabel";
        label.textContent = handView.dataset.winLabel;
        box.append(label, button("held held--win", { remove: win, win: "" }, [tileElement(win, "tile--small")]));
        parts.push(box);
      }
      if (parts.length === 1 && concealed.length === 0) {
        const empty = document.createElement("span");
        empty.className = "hand__empty";
        empty.textContent = handView.dataset.emptyLabel;
        parts.splice(0, 1, empty);
      }
      handView.replaceChildren.apply(handView, parts);
    }

    function drawPicker() {
      const held = counts();
      const full = size() >= HAND_TILES;
      form.querySelectorAll(".pick").forEach(function (pick) {
        const count = held[pick.dataset.tile] || 0;
        const badge = pick.querySelector(".pick__count");
        badge.textContent = String(count);
        badge.hidden = count === 0;
        const room = meldMode ? count === 0 || (meldMode === "pung" && count <= 1) : count < 4;
        pick.disabled = !room || (full && !meldMode) || (meldMode !== null && size() + 3 > HAND_TILES);
      });
      form.querySelectorAll("[data-meld]").forEach(function (tool) {
        tool.setAttribute("aria-pressed", String(tool.dataset.meld === meldMode));
      });
      const mark = form.querySelector("[data-mark-win]");
      if (mark) mark.setAttribute("aria-pressed", String(marking));
      form.classList.toggle("melding", meldMode !== null);
      form.classList.toggle("marking", marking);
      hint.hidden = !(meldMode || marking);
      if (meldMode) hint.textContent = hint.dataset.meld.replace("{meld}", meldLabels[meldMode]);
      if (marking) hint.textContent = hint.dataset.mark;
    }

    function changed() {
      writeFields();
      drawHand();
      drawPicker();
      if (window.htmx) window.htmx.trigger(form, "hand-changed");
    }

    function adopt(hand) {
      state = { tiles: hand.tiles.slice(), win: hand.win, melds: hand.melds.slice() };
      drawHand();
      drawPicker();
    }

    form.addEventListener("click", function (event) {
      const pick = event.target.closest(".pick");
      if (pick) {
        event.preventDefault();
        if (pick.disabled) return;
        if (meldMode) {
          state.melds.push({ kind: meldMode, tile: pick.dataset.tile });
          meldMode = null;
        } else {
          state.tiles.push(pick.dataset.tile);
        }
        changed();
        return;
      }
      const meldTool = event.target.closest("[data-meld]");
      if (meldTool) {
        meldMode = meldMode === meldTool.dataset.meld ? null : meldTool.dataset.meld;
        marking = false;
        drawPicker();
        return;
      }
      if (event.target.closest("[data-mark-win]")) {
        marking = !marking;
        meldMode = null;
        drawPicker();
        return;
      }
      if (event.target.closest("[data-clear]")) {
        state = { tiles: [], win: null, melds: [] };
        meldMode = null;
        marking = false;
        changed();
        return;
      }
      const meld = event.target.closest("[data-remove-meld]");
      if (meld) {
        state.melds.splice(Number(meld.dataset.removeMeld), 1);
        changed();
        return;
      }
      const held = event.target.closest("[data-remove]");
      if (held) {
        const name = held.dataset.remove;
        if (marking) {
          state.win = name;
          marking = false;
        } else {
          state.tiles.splice(state.tiles.lastIndexOf(name), 1);
          if (state.win === name && !state.tiles.includes(name)) state.win = null;
        }
        changed();
      }
    });

    // Switching between scoring and waits changes what the fields hold; rewrite them before htmx posts.
    form.querySelectorAll("input[name=mode]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        writeFields();
        drawHand();
        drawPicker();
      });
    });

    let typingTimer = null;
    form.querySelectorAll(".js-typed").forEach(function (input) {
      input.addEventListener("input", function () {
        typedPending = true;
        clearTimeout(typingTimer);
        typingTimer = setTimeout(function () {
          if (window.htmx) window.htmx.trigger(form, "hand-changed");
        }, 450);
      });
    });

    document.body.addEventListener("htmx:load", function (event) {
      const result = event.detail.elt;
      if (result.id !== "result" || !typedPending || !result.dataset.hand) return;
      typedPending = false;
      adopt(JSON.parse(result.dataset.hand));
    });

    const initial = document.getElementById("result");
    if (initial && initial.dataset.hand) {
      adopt(JSON.parse(initial.dataset.hand));
    } else {
      drawPicker();
    }
  }

  document.querySelectorAll("form[data-tile-picker]").forEach(initPicker);
})();
