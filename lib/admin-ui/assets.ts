// The admin web interface's only static files: one stylesheet and one progressive-enhancement
// script, served by the app itself (the CSP allows nothing else). Every page works without the
// script; it adds JSON checking as you type, copy buttons, confirmations and row/column toggles.

export const STYLESHEET = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #fff; --soft: #f6f8fa; --accent: #0a5bd3;
  --danger: #b42318; --ok: #1a7f37; --warn: #9a6700; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.45; font-size: 16px; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #ff9e1b; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem; }
.skip:focus { left: .5rem; z-index: 2; }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem; background: #0d1b2a; color: #fff; }
header.top a { color: #fff; }
header.top .brand { font-weight: 700; text-decoration: none; margin-right: auto; }
header.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem .9rem; list-style: none; margin: 0; padding: 0; }
header.top nav a[aria-current="page"] { text-decoration-thickness: 3px; }
header.top form { margin: 0; }
header.top button { background: transparent; color: #fff; border-color: #fff; }
main { padding: 1rem; max-width: 75rem; margin: 0 auto; }
h1 { font-size: 1.6rem; margin: .3rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 1.6rem 0 .6rem; }
.notice, .problem { padding: .6rem .8rem; border-radius: 6px; margin: .8rem 0; border: 1px solid; }
.notice { background: #e9f7ef; border-color: var(--ok); }
.problem { background: #fdecea; border-color: var(--danger); }
.problem p, .notice p { margin: .2rem 0; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .4rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--soft); }
td.center, th.center { text-align: center; }
form.inline { display: inline; }
.row { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: flex-end; }
.field { display: flex; flex-direction: column; gap: .2rem; margin: 0 0 .9rem; min-width: 0; }
.field > label, .field > .label { font-weight: 600; }
.field > button { align-self: flex-start; }
.hint { color: var(--muted); font-size: .9rem; }
.error { color: var(--danger); font-weight: 600; }
input, select, textarea, button { font: inherit; }
input[type=text], input[type=email], input[type=number], input[type=date], input[type=time], input[type=datetime-local],
input[type=password], input[type=search], select, textarea { padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: 6px; max-width: 100%; background: #fff; }
textarea { width: 100%; min-height: 6rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; }
textarea.prose { font-family: inherit; font-size: 1rem; }
[aria-invalid="true"] { border-color: var(--danger); border-width: 2px; }
button, .button { display: inline-block; padding: .4rem .8rem; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; border: 1px solid var(--line); background: var(--soft); color: var(--muted); white-space: nowrap; }
.badge.shared { border-color: var(--warn); color: var(--warn); background: #fff8c5; }
.badge.exists { border-color: var(--ok); color: var(--ok); background: #e9f7ef; }
.badge.draft { border-color: var(--warn); color: var(--warn); }
.badge.missing { color: var(--muted); }
.tabs { display: flex; flex-wrap: wrap; gap: .4rem; list-style: none; padding: 0; margin: .5rem 0 1rem; }
.tabs a { display: inline-block; padding: .3rem .7rem; border: 1px solid var(--line); border-radius: 6px; text-decoration: none; }
.tabs a[aria-current="page"] { border-color: var(--accent); background: #e7f0fe; font-weight: 600; }
.pair { display: grid; grid-template-columns: 1fr; gap: .4rem 1.2rem; }
.source { background: var(--soft); border: 1px dashed var(--line); border-radius: 6px; padding: .4rem .6rem; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .95rem; }
.source pre { margin: 0; white-space: pre-wrap; }
.key { font-family: ui-monospace, monospace; width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: .6rem .9rem; margin: 0 0 1rem; min-width: 0; }
legend { font-weight: 600; padding: 0 .3rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: .8rem; list-style: none; padding: 0; }
.cards li { border: 1px solid var(--line); border-radius: 8px; padding: .7rem .9rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.relation ol, .relation ul { margin: .2rem 0 .6rem; padding-left: 1.4rem; overflow-wrap: anywhere; }
.relation ul.candidates { list-style: none; padding: .3rem .5rem; max-height: 14rem; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; }
.relation p.label { font-weight: 600; margin: .3rem 0 0; }
label.inline { white-space: nowrap; }
.pages { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin: .8rem 0; }
@media (min-width: 48rem) { .pair.with-source { grid-template-columns: 1fr 1fr; } }
@media (max-width: 30rem) { main { padding: .6rem; } h1 { font-size: 1.35rem; } th, td { padding: .35rem .3rem; } }
`

export const SCRIPT = `
'use strict';
(function () {
  // JSON fields: say what is wrong while typing, before the API does.
  for (const area of document.querySelectorAll('textarea[data-json]')) {
    const check = () => {
      let message = '';
      if (area.value.trim() !== '') {
        try { JSON.parse(area.value); } catch (error) { message = 'Not valid JSON: ' + error.message; }
      }
      area.setCustomValidity(message);
      area.setAttribute('aria-invalid', message === '' ? 'false' : 'true');
      const note = document.getElementById(area.id + '-live');
      if (note) note.textContent = message;
    };
    area.addEventListener('input', check);
  }
  // After a refused save, the first field with a problem has the focus (keyboard users start there).
  const invalid = document.querySelector('main [aria-invalid="true"]');
  if (invalid) invalid.focus();
  // Buttons that destroy something ask first.
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => { if (!window.confirm(form.dataset.confirm)) event.preventDefault(); });
  }
  // Copy buttons next to a key shown once.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const field = document.getElementById(button.dataset.copy);
      try { await navigator.clipboard.writeText(field.value); button.textContent = 'Copied'; }
      catch { field.select(); button.textContent = 'Press Ctrl+C to copy'; }
    });
  }
  // Permission matrices: a button per row checks or clears the row.
  for (const button of document.querySelectorAll('button[data-toggle-row]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      const boxes = document.querySelectorAll('input[data-row="' + button.dataset.toggleRow + '"]');
      const on = [...boxes].some((box) => !box.checked);
      for (const box of boxes) box.checked = on;
    });
  }
  // Token type: the matrix only applies to custom tokens.
  const type = document.getElementById('token-type');
  const matrix = document.getElementById('token-matrix');
  if (type && matrix) {
    const sync = () => { matrix.hidden = type.value !== 'custom'; };
    type.addEventListener('change', sync);
    sync();
  }
})();
`
