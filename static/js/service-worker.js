/* The service worker: the calculator and the static files keep working with no network.
 *
 * /sw.js serves this file after one line, self.SCZMJ = {version, precache, offline}: the URLs to store
 * at install (our static files, htmx, the calculator page, the offline page) and a version that changes
 * with any of them, so a new release installs a new cache and the old one is dropped.
 *
 * - Static files: from the cache, else the network (their names change with their content in production).
 * - Pages (navigations): the network first, so a page is never stale while online; a stored page (the
 *   calculator) is refreshed in the cache on the way. With no network: the stored copy, else the offline
 *   page, which says plainly that this page needs the network.
 * - Everything else (the API, htmx requests, polling): the network only. When it fails the page's own
 *   script (pwa.js) says that the phone is offline.
 */
"use strict";

const CONFIG = self.SCZMJ;
const CACHE = "sczmj-" + CONFIG.version;
const PAGES = new Set(CONFIG.precache.filter(function (url) { return !url.startsWith("/static/"); }));

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
          return name.startsWith("sczmj-") && name !== CACHE;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function fromCacheElseNetwork(request) {
  return caches.match(request).then(function (hit) { return hit || fetch(request); });
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
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(fromCacheElseNetwork(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkElseCache(request, url.pathname + url.search));
  }
});
