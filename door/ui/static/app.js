// The dashboard: a hash router over four views, reading the JSON API of
// package ui. Plain DOM code, no build step.
"use strict";

const view = document.getElementById("view");
const status = document.getElementById("status");

async function get(path, asText) {
  const r = await fetch(path);
  if (!r.ok) {
    let msg = r.statusText;
    try { msg = (await r.json()).error || msg; } catch (e) {}
    throw new Error(msg);
  }
  return asText ? r.text() : r.json();
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "html") e.innerHTML = v; else e.setAttribute(k, v);
  }
  for (const k of kids.flat(Infinity)) e.append(k instanceof Node ? k : document.createTextNode(k == null ? "" : String(k)));
  return e;
}

const fmt = (x) => (x == null ? "–" : Number(x).toFixed(3));
const pair = (a, b) => (a == null ? fmt(b) : `${fmt(a)} → ${fmt(b)}`);

// chart draws train and holdout after each generation: a line through the
// heads (baseline, accepted, rollback), dots for rejected candidates.
function chart(gens) {
  const W = 760, H = 240, L = 40, B = 30, T = 10;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W); svg.setAttribute("height", H); svg.id = "chart-svg";
  const n = Math.max(gens.length - 1, 1);
  const x = (i) => L + (i * (W - L - 20)) / n, y = (v) => T + (1 - v) * (H - T - B);
  const add = (tag, attrs) => { const e = document.createElementNS(svg.namespaceURI, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); svg.append(e); return e; };
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    add("line", { x1: L, x2: W - 10, y1: y(v), y2: y(v), stroke: "#e3e6eb" });
    add("text", { x: 4, y: y(v) + 4 }).textContent = v.toFixed(2);
  }
  gens.forEach((g, i) => { add("text", { x: x(i) - 4, y: H - 10 }).textContent = g.gen; });
  for (const [key, color] of [["train_post", "#3b6fd8"], ["holdout_post", "#2a9d55"]]) {
    const heads = gens.map((g, i) => [g, i]).filter(([g]) => ["baseline", "accept", "rollback"].includes(g.decision) && g[key] != null);
    if (heads.length) add("polyline", { points: heads.map(([g, i]) => `${x(i)},${y(g[key])}`).join(" "), fill: "none", stroke: color, "stroke-width": 2, class: "line-" + key });
    gens.forEach((g, i) => {
      if (g[key] == null) return;
      const c = add("circle", { cx: x(i), cy: y(g[key]), r: 4, fill: g.decision === "reject" ? "#fff" : color, stroke: color, class: "point" });
      add("title", {}).textContent = `gen ${g.gen} ${g.decision}: ${key.replace("_post", "")} ${fmt(g[key])}`;
      c.append(svg.lastChild);
    });
  }
  return svg;
}

// evidence is the gate's paired comparison on a split: tasks fixed and
// broken, and the sign test's p (absent in ledgers from before the gate).
function evidence(g, split) {
  const f = g[`${split}_fixed`], b = g[`${split}_broken`], p = g[`${split}_p`];
  if (f == null) return "";
  return el("span", { class: "evidence", title: `${f} tasks fixed, ${b} broken; one-sided sign test p = ${fmt(p)}` }, `+${f} −${b} · p ${fmt(p)}`);
}

// frozen says what the ledger fixed at init: model, repeats, alpha and the holdout's looks.
function frozen(info) {
  const said = (v) => (v == null ? "not recorded (an older ledger)" : v);
  return el("p", { id: "frozen" }, el("b", {}, "Model: "), said(info.model), "   ", el("b", {}, "Repeats: "), said(info.repeats),
    "   ", el("b", {}, "Alpha: "), said(info.alpha), "   ", el("b", {}, "Looks: "), said(info.looks),
    "   ", el("span", { class: "note" }, "frozen for this ledger at init"));
}

// headCard shows the head's mean, its standard error and the flaky tasks
// (whose repeats disagree) on each split.
function headCard(info) {
  const lines = info.splits.map((s) =>
    el("p", { class: "split-" + s.split }, el("b", {}, `${s.split}: `), `${fmt(s.mean)} ± ${fmt(s.se)} (standard error) over ${s.tasks} task${s.tasks === 1 ? "" : "s"} × ${s.repeats} repeat${s.repeats === 1 ? "" : "s"}, a mean over tasks (the gate's, in the table, is over groups); `,
      s.flaky.length ? ["flaky: ", el("span", { class: "flaky" }, s.flaky.join(", "))] : "no flaky tasks"));
  return el("div", { class: "card", id: "head" }, info.gen == null ? "No head yet." : [el("b", {}, `Head: generation ${info.gen}`), lines], frozen(info), noiseFloor(info));
}

// noiseFloor shows the gate's false-accept rate as ratchet calibrate
// measured it with the live model beside ratchet plan --aa's prediction, and
// how many decisions have looked at the holdout since the last sealed exam.
function noiseFloor(info) {
  const c = info.calibration;
  const measured = c == null ? "not measured yet (ratchet calibrate)" :
    `${c.accepted} of ${c.variants.length} neutral variants of generation ${c.head_gen} passed the holdout gate: ` +
    `${fmt(c.false_accept_rate)} ± ${fmt(c.std_err)} measured, ${fmt(c.predicted_rate)} ± ${fmt(c.predicted_std_err)} predicted by ratchet plan --aa`;
  return el("p", { id: "noise" }, el("b", {}, "False accepts: "), measured, "   ",
    el("b", {}, "Holdout consulted: "), `${info.holdout_consults ?? 0} decision(s) since the last sealed exam`);
}

// cost is what a decision spent (a ledger from before issue 22 has no such columns).
function cost(g) {
  if (g.runs == null) return "–";
  const stop = g.stopped ? `; stopped at ${g.stopped}` : "";
  return `${g.runs} runs, ${g.runs_cached} from the cache, ${g.requests} model requests, ${g.upstream_tokens} upstream tokens${stop}`;
}

async function generations() {
  const [gens, info] = await Promise.all([get("/api/generations"), get("/api/head")]);
  status.textContent = `${gens.length} generations`;
  const rows = gens.slice().reverse().map((g) =>
    el("tr", { class: g.head ? "head" : "" },
      el("td", {}, el("a", { href: `#/gen/${g.gen}` }, g.gen)),
      el("td", { class: g.decision }, g.decision),
      el("td", {}, pair(g.train_pre, g.train_post), el("br", {}), evidence(g, "train")),
      el("td", {}, pair(g.holdout_pre, g.holdout_post), el("br", {}), evidence(g, "holdout")),
      el("td", {}, g.component || ""),
      el("td", { class: "goal" }, g.goal || ""),
      el("td", { class: "cost" }, cost(g)),
      el("td", {}, g.reason || "")));
  view.replaceChildren(
    el("h2", {}, "Scores by generation"),
    el("div", { class: "legend" }, el("span", { class: "train" }, "● train"), el("span", { class: "holdout" }, "● holdout"), el("span", {}, "○ rejected candidate")),
    el("div", { id: "chart" }, chart(gens)),
    headCard(info),
    el("h2", {}, "Generations"),
    el("table", { id: "generations" },
      el("tr", {}, ["gen", "decision", "train, mean over groups (+fixed −broken · p)", "holdout, mean over groups (+fixed −broken · p)", "component", "goal", "cost", "reason"].map((h) => el("th", {}, h))), rows));
}

async function generation(n) {
  const [gens, info] = await Promise.all([get("/api/generations"), get("/api/head")]);
  const g = gens.find((x) => String(x.gen) === n);
  if (!g) throw new Error(`no generation ${n}`);
  let ids = [];
  try { ids = JSON.parse(g.trace_ids || "[]") || []; } catch (e) {}
  const gate = (split) => {
    if (g[`${split}_fixed`] == null) return "";
    const alpha = split === "holdout" && info.alpha != null ? ` (the gate needs p ≤ ${info.alpha})` : "";
    return ` — ${g[`${split}_fixed`]} fixed, ${g[`${split}_broken`]} broken, p = ${fmt(g[`${split}_p`])}${alpha}`;
  };
  const diffBox = el("pre", { class: "diff", id: "diff" }, g.diff_hash ? "loading…" : "(no diff: a baseline or a rollback)");
  view.replaceChildren(
    el("h2", {}, `Generation ${g.gen}`, g.head ? " (head)" : ""),
    el("div", { class: "card", id: "generation" },
      el("p", {}, el("b", {}, "Decision: "), el("span", { class: g.decision }, g.decision), " — ", g.reason || ""),
      el("p", {}, el("b", {}, "Goal: "), g.goal || "–"),
      el("p", {}, el("b", {}, "Hypothesis: "), g.hypothesis || "–"),
      el("p", {}, el("b", {}, "Component: "), g.component || "–", "   ", el("b", {}, "Parent: "), g.parent_gen == null ? "–" : el("a", { href: `#/gen/${g.parent_gen}` }, g.parent_gen)),
      el("p", { id: "gate-train" }, el("b", {}, "Train: "), pair(g.train_pre, g.train_post), gate("train")),
      el("p", { id: "gate-holdout" }, el("b", {}, "Holdout: "), pair(g.holdout_pre, g.holdout_post), gate("holdout")),
      el("p", { id: "cost" }, el("b", {}, "Cost: "), cost(g)),
      el("p", { id: "gen-tokens" }, el("b", {}, "Tokens: "), g.tokens,
        el("span", { class: "note" }, " (the anchor's runs that judged this generation; ratchet evolve --history adds the evolver's own run)"),
        "   ", el("b", {}, "Repeats: "), info.repeats == null ? "–" : info.repeats),
      el("p", { class: "trace-ids" }, el("b", {}, "Traces read: "), ids.length ? ids.map((id) => el("a", { href: `#/trace/${id}` }, id)) : "–"),
      el("p", {}, el("b", {}, "Snapshot: "), el("code", {}, g.harness_hash || "–"))),
    el("h2", {}, "Diff"), diffBox);
  if (g.diff_hash) {
    const text = await get(`/api/diff/${g.diff_hash}`, true);
    diffBox.replaceChildren(...text.split("\n").map((l) =>
      el("div", { class: l.startsWith("+") && !l.startsWith("+++") ? "add" : l.startsWith("-") && !l.startsWith("---") ? "del" : l.startsWith("@@") ? "hunk" : "" }, l || " ")));
  }
}

// cell shows a task's runs for one generation, one per repeat: passed/total
// (a train run links to its trace) and the outcome when it is not ok. Its
// colour is the task's score, the mean of its repeats.
function cell(runs) {
  if (!runs) return el("td", { class: "cell none" }, "·");
  const mean = runs.reduce((a, r) => a + r.score, 0) / runs.length;
  const flaky = runs.some((r) => r.score !== runs[0].score);
  const cls = mean >= 1 ? "pass" : mean > 0 ? "part" : "fail";
  const parts = runs.map((r) => {
    const label = `${r.passed}/${r.total}`;
    const why = r.split === "train" && r.error ? r.error : `outcome ${r.outcome}`;
    return el("span", { class: "run", title: `repeat ${r.repeat}: score ${fmt(r.score)}, ${why}` },
      r.run_id ? el("a", { href: `#/trace/${r.run_id}` }, label) : label,
      r.outcome && r.outcome !== "ok" ? el("span", { class: `outcome ${r.outcome}` }, r.outcome) : "");
  });
  return el("td", { class: `cell ${cls}${flaky ? " flaky" : ""}`, title: flaky ? "flaky: the repeats disagree" : "" }, parts);
}

async function matrix() {
  const rows = await get("/api/matrix");
  const gens = [...new Set(rows.map((r) => r.gen))].sort((a, b) => a - b);
  const tasks = new Map();
  for (const r of rows) {
    const key = `${r.split}/${r.task_id}`;
    if (!tasks.has(key)) tasks.set(key, { split: r.split, task: r.task_id, cells: {} });
    (tasks.get(key).cells[r.gen] ||= []).push(r);
  }
  const body = [...tasks.values()].map((t) =>
    el("tr", {}, el("td", {}, t.split), el("td", {}, t.task), gens.map((g) => cell(t.cells[g]))));
  status.textContent = `${tasks.size} tasks × ${gens.length} generations`;
  view.replaceChildren(
    el("h2", {}, "Pass/fail by task and generation"),
    el("p", {}, "Each cell is the task's latest run of each repeat for that generation's harness (passed/total), with its outcome when it was not ok " +
      "(timeout, crash, build, forged, scoring); ≠ marks repeats that disagree. Train cells open their trace; holdout traces and error text stay hidden."),
    el("table", { id: "matrix" }, el("tr", {}, el("th", {}, "split"), el("th", {}, "task"), gens.map((g) => el("th", {}, el("a", { href: `#/gen/${g}` }, `gen ${g}`)))), body));
}

function block(text) { return el("pre", {}, text); }

async function trace(id) {
  const t = await get(`/api/trace/${id}`);
  const ev = t.events.map((e) => {
    const head = el("span", { class: "kind" }, e.type), step = e.step != null ? `step ${e.step}` : "";
    switch (e.type) {
      case "model_call": return el("div", { class: "event model_call" }, head, step, ` — ${e.n_messages} messages`, e.attempt > 1 ? el("span", { class: "badge" }, `attempt ${e.attempt}`) : "");
      case "model_reply": return el("div", { class: "event model_reply" }, head, step,
        el("span", { class: "badge" }, `usage in ${e.usage ? e.usage.input : 0} / out ${e.usage ? e.usage.output : 0}`), el("span", { class: "badge" }, e.stop_reason || ""),
        e.text ? block(e.text) : "", (e.tool_calls || []).map((c) => el("div", {}, "→ ", el("b", {}, c.name), " ", JSON.stringify(c.args))));
      case "tool_call": return el("div", { class: "event tool_call" }, head, step, " ", el("b", {}, e.name), " ", el("code", {}, e.args));
      case "tool_result": return el("div", { class: "event tool_result" }, head, step, " ", el("b", {}, e.name),
        e.truncated ? el("span", { class: "badge truncated" }, `truncated: the model saw ${e.shown_chars} of ${e.result.length} characters`) : "",
        e.rejected ? el("span", { class: "badge rejected" }, "rejected before running") : "", block(e.result));
      case "error": return el("div", { class: "event error" }, head, step, " ", e.message);
      case "done": return el("div", { class: "event done" }, head, `${e.reason} after ${e.steps} steps`,
        el("span", { class: "badge" }, `usage in ${e.usage ? e.usage.input : 0} / out ${e.usage ? e.usage.output : 0}`));
    }
    return el("div", { class: "event" }, head, JSON.stringify(e));
  });
  status.textContent = `${t.events.length} events`;
  view.replaceChildren(
    el("h2", {}, `Run ${id}`),
    el("div", { class: "card", id: "run" }, el("b", {}, "Task: "), t.run.task_id, "   ", el("b", {}, "Repeat: "), t.run.repeat, "   ",
      el("b", {}, "Score: "), `${fmt(t.run.score)} (${t.run.passed}/${t.run.total})`, "   ", el("b", {}, "Outcome: "), t.run.outcome,
      t.run.error ? el("p", {}, el("b", {}, "Error: "), t.run.error) : "",
      t.truncated ? el("p", { class: "badge truncated" }, `the trace is longer than ${t.limit} bytes; only its start is shown`) : ""),
    el("div", { id: "events" }, ev));
}

async function route() {
  const h = location.hash.replace(/^#/, "") || "/";
  try {
    let m;
    if ((m = h.match(/^\/gen\/(\d+)$/))) await generation(m[1]);
    else if ((m = h.match(/^\/trace\/([0-9a-z]+)$/))) await trace(m[1]);
    else if (h === "/matrix") await matrix();
    else await generations();
    document.body.dataset.ready = h;
  } catch (e) {
    view.replaceChildren(el("p", { class: "reject", id: "error" }, `Error: ${e.message}`));
    document.body.dataset.ready = h;
  }
}

window.addEventListener("hashchange", route);
route();
