/* The service worker: the calculator, its offline engine and the static files keep working with no network.
 *
 * /sw.js serves this file after one line, self.SCZMJ = {version, precache, offline, engine}: the URLs to
 * store at install (our static files, htmx, the calculator page, the offline page, the engine bundle) and a
 * version that changes with any of them, so a new release installs a new cache and the old one is dropped.
 * engine (null when the server has no Pyodide) names the Pyodide runtime: 13 MB, so it is not stored at
 * install but when the calculator page asks (static/js/offline.js, once the page is usable), in a cache of
 * its own named by the Pyodide version, which our releases keep: a phone downloads it once per version.
 *
 * - Static files and the engine bundle: from the cache, else the network (static names change with their
 *   content in production; the bundle is re-stored by each new worker).
 * - Pages (navigations): the network first, so a page is never stale while online; a stored page (the
 *   calculator) is refreshed in the cache on the way. With no network: the stored copy, else the offline
 *   page, which says plainly that this page needs the network.
 * - Everything else (the API, htmx requests, polling): the network only. When it fails the page's own
 *   script says that the phone is offline (pwa.js), or scores the hand itself (offline.js).
 *
 * Messages: {type: "offline-engine", fetch} from a page, answered on its port with {ready}: whether every
 * runtime file is stored, after storing the missing ones when fetch is true.
 */
"use strict";

const CONFIG = self.SCZMJ;
const CACHE = "sczmj-" + CONFIG.version;
const ENGINE = CONFIG.engine;
const KEEP = new Set([CACHE].concat(ENGINE ? [ENGINE.cache] : []));
const PAGES = new Set(CONFIG.precache.filter(function (url) {
  return !url.startsWith("/static/") && (!ENGINE || url !== ENGINE.bundle);
}));

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(CONFIG.precache); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.startsWith("sczmj-") && !KEEP.has(name);
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

/* One file at a time, each kept as soon as it arrives: a download cut short resumes where it stopped. */
function storeRuntime(fetchMissing) {
  return caches.open(ENGINE.cache).then(function (cache) {
    return ENGINE.runtime.reduce(function (previous, url) {
      return previous.then(function (ready) {
        return cache.match(url).then(function (hit) {
          if (hit) return ready;
          if (!fetchMissing) return false;
          return cache.add(url).then(function () { return ready; }, function () { return false; });
        });
      });
    }, Promise.resolve(true));
  });
}

self.addEventListener("message", function (event) {
  const port = event.ports[0];
  if (!event.data || event.data.type !== "offline-engine" || !port) return;
  if (!ENGINE) {
    port.postMessage({ ready: false });
    return;
  }
  event.waitUntil(storeRuntime(Boolean(event.data.fetch)).then(function (ready) {
    port.postMessage({ ready: ready });
  }));
});

/* ignoreVary: Django marks every response "Vary: Accept-Language", yet a static file or the engine bundle is
 * the same in every language, and a worker's request does not carry the page's headers. */
function fromCacheElseNetwork(request) {
  return caches.match(request, { ignoreVary: true }).then(function (hit) { return hit || fetch(request); });
}

function networkElseCache(request, path) {
  return fetch(request)
    .then(function (response) {
      if (response.ok && PAGES.has(path)) {
        const copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(path, copy); });
      }
      return response;
    })
    .catch(function () {
      return caches.match(path, { ignoreSearch: false }).then(function (hit) {
        return hit || caches.match(CONFIG.offline);
      });
    });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.startsWith("/static/") || (ENGINE && url.pathname === ENGINE.bundle)) {
    event.respondWith(fromCacheElseNetwork(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkElseCache(request, url.pathname + url.search));
  }
});
