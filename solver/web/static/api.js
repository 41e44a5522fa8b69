// The server: one request at a time per action, JSON in and out.  A lost
// server or a table being solved is waited for (and shown with its
// progress); an answer for a position the page has left is dropped
// (Superseded); a refusal is an ApiError with the server's code, shown in
// the page's words (errorText).
import {has, percent, t} from "./words.js";
import {$} from "./dom.js";
import {S} from "./state.js";

export class Superseded extends Error {}
class ApiError extends Error {
  constructor(status, data) {
    super(data.error || String(status));
    Object.assign(this, {status, code: data.code || (status >= 500 ? "internal" : "input"), command: data.command, data});
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function net(text, pct) {
  $("net").hidden = !text;
  $("net-text").textContent = text || "";
  $("net-progress").hidden = pct === undefined;
  if (pct !== undefined) { $("net-progress").value = pct; $("net-progress").setAttribute("aria-label", text); }
}

// A build's time left as "40 s", "3:05" or "1:02:05".
function clockText(seconds) {
  const s = Math.round(seconds);
  const two = (n) => String(n).padStart(2, "0");
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

// One request; a lost server or a table being solved is waited for (and
// shown), unless a newer action supersedes the request meanwhile.
export async function api(path, body, query, mine) {
  let wait = 1000;
  for (;;) {
    if (mine !== undefined && mine !== S.seq) throw new Superseded();
    const url = path + (query ? "?" + new URLSearchParams(query) : "");
    let res, data;
    try {
      res = await fetch(url, body === undefined ? {} :
        {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      data = await res.json();
    } catch (e) {
      net(t("serverDown"));
      await sleep(wait);
      wait = Math.min(wait * 2, 8000);
      continue;
    }
    if (res.status === 503 && data.code === "solving") {
      const p = data.progress || {};
      const pct = p.total ? Math.floor(100 * p.done / p.total) : 0;
      const left = typeof p.seconds_left === "number" ? t("solvingLeft", {time: clockText(p.seconds_left)}) : "";
      net(t("solving", {spec: (body && body.rules) || (body && body.game && body.game.rules) || (query && query.rules) || "",
                        pct: percent(pct / 100)}) + left, pct);
      await sleep(700);
      continue;
    }
    net("");
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }
}


// An error of the server (or of the page's request) in the page's words.
export function errorText(e) {
  if (!e || !e.code) return t("err_internal");
  if (e.code === "http") return t("err_http", {status: e.status});
  const key = "err_" + e.code;
  return has(key) ? t(key, {detail: e.message, cmd: e.command || "", status: e.status}) : t("err_input", {detail: e.message});
}
