// Putting the page on a phone's home screen.  A browser installs a web app
// (with a service worker, offline) only from https or localhost; `yatzy
// serve` on the family's network speaks plain http, so the page says so
// and gives the steps that work anyway: a home-screen shortcut with the
// icon, which opens the page while the server runs.  Where the browser
// offers to install (https, localhost) its own prompt is used.  A button
// in the "More" menu opens it (setupInstall, called by main.js).
import {t} from "./words.js";
import {$, el} from "./dom.js";
import {openPanel} from "./game.js";

let prompt = null;           // the browser's install prompt, where it offers one

function panel() {
  let p = $("install");
  if (p) return p;
  p = el("section", {id: "install", class: "panel", hidden: true, "aria-labelledby": "install-h"},
    el("h2", {id: "install-h"}), el("p", {id: "install-why"}), el("ul", {id: "install-steps"}),
    el("div", {class: "row"}, el("button", {id: "install-ok", class: "primary", hidden: true}),
      el("button", {id: "install-close"})));
  $("share-box").before(p);
  $("install-close").onclick = () => openPanel("install", false);
  $("install-ok").onclick = async () => { if (prompt) { prompt.prompt(); prompt = null; render(); } };
  return p;
}

function render() {
  $("install-h").textContent = t("installTitle");
  $("install-why").textContent = window.isSecureContext ? t("installSecure") : t("installHttp");
  $("install-steps").replaceChildren(...["installIphone", "installAndroid"].map((k) => el("li", {text: t(k)})));
  $("install-ok").hidden = !prompt;
  $("install-ok").textContent = t("installNow");
  $("install-close").textContent = t("close");
  $("install-button").textContent = t("installButton");
}

export function setupInstall() {
  const button = el("button", {id: "install-button"});
  $("import-button").after(button);
  panel();
  button.onclick = () => { $("more-menu").open = false; render(); openPanel("install", $("install").hidden); };
  window.addEventListener("beforeinstallprompt", (e) => { e.preventDefault(); prompt = e; });
  render();
  $("lang").addEventListener("change", render);      // after main.js has set the language
}
