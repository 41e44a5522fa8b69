// The service worker of the yatzy page: the page itself (HTML, its
// modules, the words, style, icon, manifest) is fetched from the network first and kept, so a
// reload while the server is away still shows the page and the game saved
// in the browser.  The API is never cached: advice always comes fresh.
"use strict";
const CACHE = "yatzy-page-5";
const MODULES = ["main", "words", "dom", "dice", "state", "api", "game", "card", "chart", "newgame", "links", "share", "practice",
                 "family", "review", "scorepad", "confirm", "level", "install"];
const SHELL = ["/", "/words.json", ...MODULES.map((m) => `/static/${m}.js`), "/static/style.css", "/static/icon.svg",
               "/static/icon-192.png", "/static/icon-512.png", "/static/apple-touch-icon.png", "/manifest.webmanifest"];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  const key = url.pathname === "/" ? "/" : url.pathname;
  if (!SHELL.includes(key)) return;
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(key, copy)); }
    return res;
  }).catch(() => caches.match(key).then((hit) => hit || Response.error())));
});
