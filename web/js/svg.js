// A tiny helper to build SVG elements.

const NS = 'http://www.w3.org/2000/svg';

/** el creates an SVG element with attributes and optional text. */
export function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
