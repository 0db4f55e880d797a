// Dark and light themes: the system's choice (prefers-color-scheme) unless
// the reader picked one with the toggle, which is remembered.

import { load, save } from './storage.js';

const media = matchMedia('(prefers-color-scheme: dark)');

export function initTheme() {
  apply(load('theme'));
  media.addEventListener('change', () => apply(load('theme')));
}

export function toggleTheme() {
  const next = effective() === 'dark' ? 'light' : 'dark';
  save('theme', next);
  apply(next);
}

function effective() {
  const t = document.documentElement.dataset.theme;
  return t || (media.matches ? 'dark' : 'light');
}

function apply(choice) {
  const root = document.documentElement;
  if (choice === 'dark' || choice === 'light') root.dataset.theme = choice;
  else delete root.dataset.theme;
  const btn = document.getElementById('theme-button');
  if (btn) btn.setAttribute('aria-pressed', effective() === 'dark' ? 'true' : 'false');
}
