/* The offline engine: Pyodide (CPython in WebAssembly) running the server's own calculator code, in a
 * worker so the page never freezes while it starts (a few seconds) or scores.
 *
 * A module worker, started by offline.js. Its first message is {boot: {indexURL, bundle}}: Pyodide's
 * folder and the zip of our Python (pwa/offline.py); it answers {booted: true} or {failed: message}.
 * Then each {id, form, language} (the calculator form's fields) is worked out by
 * calculator.outcome.work_out_json, exactly as the server's view works it out, and answered {id, outcome}
 * (JSON text) or {id, failed}. Every file comes through the service worker, so all of it works offline.
 */
let workOut = null;

async function boot(config) {
  const { loadPyodide } = await import(config.indexURL + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: config.indexURL });
  const response = await fetch(config.bundle);
  if (!response.ok) throw new Error("engine bundle: HTTP " + response.status);
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/sczmj" });
  pyodide.runPython("import sys; sys.path.insert(0, '/sczmj')");
  workOut = pyodide.pyimport("calculator.outcome").work_out_json;
}

self.addEventListener("message", function (event) {
  const message = event.data;
  if (message.boot) {
    boot(message.boot).then(
      function () { self.postMessage({ booted: true }); },
      function (error) { self.postMessage({ failed: String(error && error.message || error) }); }
    );
    return;
  }
  try {
    self.postMessage({ id: message.id, outcome: workOut(JSON.stringify(message.form), message.language) });
  } catch (error) {
    self.postMessage({ id: message.id, failed: String(error && error.message || error) });
  }
});
