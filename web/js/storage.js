// localStorage with a prefix, ignoring browsers that refuse storage.

const PREFIX = 'gpumem-playground:';

/** load returns the stored string, or null. */
export function load(key) {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/** save stores value; failures (private mode, quota) are ignored. */
export function save(key, value) {
  try {
    localStorage.setItem(PREFIX + key, value);
  } catch {
    // nothing to do: the page works without storage
  }
}
