/* The tile picker: taps build a hand in text boxes (the only state the server reads), drawn at once.
 *
 * One picker is a root element holding a hand view ([data-hand-view]), the tiles (.pick), the meld tools
 * ([data-meld]) and optionally [data-mark-win] and [data-clear]. It writes into text boxes in the notation
 * the page accepts when typed: concealed tiles, the winning tile (its own box, or last in the concealed box
 * when there is none), and melds as players write them (碰5p 暗杠3m). The vocabulary it needs (suits, hand
 * size, copies of a tile, meld sizes) comes from the server in data-picker-config, never retyped here.
 *
 * window.sczmjPicker.create(root, {fields, onChange}) returns {bind(fields), adopt(hand), clear()};
 * the calculator binds it once to its form, the event entry re-binds it to the seat being entered.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function create(root, options) {
    const config = JSON.parse(root.dataset.pickerConfig);
    const base = root.dataset.tileBase;
    const handView = root.querySelector("[data-hand-view]");
    const hint = root.querySelector("[data-hint]");
    const labels = {};
    root.querySelectorAll(".pick").forEach(function (button) {
      labels[button.dataset.tile] = button.getAttribute("aria-label");
      // Without this script a tile posts the form as "add"; with it, the tile must not be sent as a value.
      button.type = "button";
      button.removeAttribute("name");
    });
    const meldLabels = {};
    const meldWords = {};
    root.querySelectorAll("[data-meld]").forEach(function (button) {
      meldLabels[button.dataset.meld] = button.textContent.trim();
      meldWords[button.dataset.meld] = button.dataset.word;
    });

    let fields = options.fields;
    let state = { tiles: [], win: null, melds: [] };
    let meldMode = null;
    let marking = false;

    function order(name) {
      return config.suits.indexOf(name[1]) * 9 + Number(name[0]);
    }

    function winning() {
      return !options.winning || options.winning();
    }

    function winTile() {
      if (!winning() || state.tiles.length === 0) return null;
      if (state.win && state.tiles.includes(state.win)) return state.win;
      return state.tiles[state.tiles.length - 1];
    }

    function counts() {
      const result = {};
      state.tiles.forEach(function (name) { result[name] = (result[name] || 0) + 1; });
      state.melds.forEach(function (meld) {
        result[meld.tile] = (result[meld.tile] || 0) + config.meldSize[meld.kind];
      });
      return result;
    }

    function size() {
      return state.tiles.length + 3 * state.melds.length;
    }

    function concealedSorted() {
      const win = winTile();
      const concealed = state.tiles.slice();
      if (win) concealed.splice(concealed.lastIndexOf(win), 1);
      return concealed.sort(function (a, b) { return order(a) - order(b); });
    }

    function writeFields() {
      const win = winTile();
      const concealed = concealedSorted();
      if (fields.win) {
        fields.concealed.value = concealed.join("");
        fields.win.value = win || "";
      } else {
        fields.concealed.value = concealed.join("") + (win || "");
      }
      fields.melds.value = state.melds.map(function (meld) { return meldWords[meld.kind] + meld.tile; }).join(" ");
    }

    function tileElement(name, extraClass) {
      const tile = document.createElement("span");
      tile.className = "tile tile--" + name[1] + " " + extraClass;
      const img = document.createElement("img");
      img.src = base + name + ".svg";
      img.alt = labels[name] || name;
      img.width = 60;
      img.height = 80;
      tile.append(img);
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
      const parts = [];
      state.melds.forEach(function (meld, index) {
        const label = document.createElement("span");
        label.className = "meld__label";
        label.textContent = meldLabels[meld.kind] || meld.kind;
        const tiles = document.createElement("span");
        tiles.className = "meld__tiles";
        for (let i = 0; i < config.meldSize[meld.kind]; i += 1) tiles.append(tileElement(meld.tile, "tile--small"));
        parts.push(button("meld", { removeMeld: String(index) }, [label, tiles]));
      });
      const held = document.createElement("span");
      held.className = "hand__concealed";
      concealedSorted().forEach(function (name) {
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
      if (state.melds.length === 0 && state.tiles.length === 0) {
        const empty = document.createElement("span");
        empty.className = "hand__empty";
        empty.textContent = handView.dataset.emptyLabel;
        parts.splice(0, parts.length, empty);
      }
      handView.replaceChildren.apply(handView, parts);
    }

    function drawPicker() {
      const held = counts();
      const full = size() >= config.handTiles;
      root.querySelectorAll(".pick").forEach(function (pick) {
        const count = held[pick.dataset.tile] || 0;
        const badge = pick.querySelector(".pick__count");
        badge.textContent = String(count);
        badge.hidden = count === 0;
        const room = meldMode ? count === 0 || (config.meldSize[meldMode] === 3 && count <= 1) : count < config.copies;
        pick.disabled = !room || (full && !meldMode) || (meldMode !== null && size() + 3 > config.handTiles);
      });
      root.querySelectorAll("[data-meld]").forEach(function (tool) {
        tool.setAttribute("aria-pressed", String(tool.dataset.meld === meldMode));
      });
      const mark = root.querySelector("[data-mark-win]");
      if (mark) mark.setAttribute("aria-pressed", String(marking));
      root.classList.toggle("melding", meldMode !== null);
      root.classList.toggle("marking", marking);
      if (hint) {
        hint.hidden = !(meldMode || marking);
        if (meldMode) hint.textContent = hint.dataset.meld.replace("{meld}", meldLabels[meldMode]);
        if (marking) hint.textContent = hint.dataset.mark;
      }
    }

    function redraw() {
      drawHand();
      drawPicker();
    }

    function changed() {
      writeFields();
      redraw();
      if (options.onChange) options.onChange(fields);
    }

    function adopt(hand) {
      state = { tiles: hand.tiles.slice(), win: hand.win, melds: hand.melds.slice() };
      redraw();
    }

    root.addEventListener("click", function (event) {
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
        if (options.onClear) options.onClear();
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

    return {
      bind: function (newFields, hand) {
        fields = newFields;
        meldMode = null;
        marking = false;
        adopt(hand || { tiles: [], win: null, melds: [] });
      },
      adopt: adopt,
      state: function () { return { tiles: state.tiles.slice(), win: state.win, melds: state.melds.slice() }; },
      rewrite: function () { writeFields(); redraw(); },
      redraw: redraw,
    };
  }

  window.sczmjPicker = { create: create };

  // The calculator: one picker over its own form; htmx asks the server for the fan after every tap.
  document.querySelectorAll("form[data-tile-picker]").forEach(function (form) {
    const fields = { concealed: form.elements.concealed, win: form.elements.win_tile, melds: form.elements.melds };
    let winTyped = false;
    const picker = create(form, {
      fields: fields,
      winning: function () {
        const checked = form.querySelector("input[name=mode]:checked");
        return !checked || checked.value === "win";
      },
      onChange: function () {
        winTyped = false;
        if (window.htmx) window.htmx.trigger(form, "hand-changed");
      },
      // 清空 starts a new hand: the toggles of the old one (杠上花, 海底, 天胡…) go with it.
      onClear: function () {
        form.querySelectorAll("[data-hand-toggles] input[type=checkbox]").forEach(function (box) { box.checked = false; });
      },
    });

    // Switching between scoring and waits changes what the fields hold; rewrite them before htmx posts.
    form.querySelectorAll("input[name=mode]").forEach(function (radio) {
      radio.addEventListener("change", picker.rewrite);
    });

    let typedPending = false;
    let typingTimer = null;
    fields.win.addEventListener("input", function () { winTyped = true; });
    form.querySelectorAll(".js-typed").forEach(function (input) {
      input.addEventListener("input", function () {
        // A hand typed afresh replaces the tapped one, winning tile included, unless that was typed too.
        if (input === fields.concealed && !winTyped) fields.win.value = "";
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
      picker.adopt(JSON.parse(result.dataset.hand));
    });

    const initial = document.getElementById("result");
    if (initial && initial.dataset.hand) picker.adopt(JSON.parse(initial.dataset.hand));
    else picker.redraw();
  });
})();
