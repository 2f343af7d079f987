'use strict';
(function () {
  // JSON fields: say what is wrong while typing, before the API does.
  for (const area of document.querySelectorAll('textarea[data-json]')) {
    const check = () => {
      let message = '';
      if (area.value.trim() !== '') {
        try { JSON.parse(area.value); } catch (error) { message = (area.dataset.label || 'This field') + ' is not valid JSON: ' + error.message; }
      }
      area.setCustomValidity(message);
      area.setAttribute('aria-invalid', message === '' ? 'false' : 'true');
      const note = document.getElementById(area.id + '-live');
      if (note) note.textContent = message;
    };
    area.addEventListener('input', check);
  }
  // After a refused save, the first field with a problem has the focus (keyboard users start there);
  // after an edit of a component list, the entry or button it names (a new entry: its first field).
  const invalid = document.querySelector('main [aria-invalid="true"]');
  const edited = document.querySelector('main [data-focus]');
  if (invalid) invalid.focus();
  else if (edited) (edited.matches('button') ? edited : edited.querySelector('input:not([type=hidden]),select,textarea,button') || edited).focus();
  // Drop zones: files dropped on the form fill its file field and upload.
  for (const zone of document.querySelectorAll('form[data-drop]')) {
    const input = zone.querySelector('input[type=file]');
    zone.addEventListener('dragover', (event) => { event.preventDefault(); zone.classList.add('dragging'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
    zone.addEventListener('drop', (event) => {
      event.preventDefault();
      zone.classList.remove('dragging');
      if (!event.dataTransfer || event.dataTransfer.files.length === 0) return;
      input.files = event.dataTransfer.files;
      zone.requestSubmit();
    });
  }
  // Buttons that destroy something ask first.
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      // data-confirm-intent: only that button asks (a bulk form's delete, not its publish).
      const intent = form.dataset.confirmIntent;
      if (intent && (!event.submitter || event.submitter.value !== intent)) return;
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
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
