// Runs in <head> before the first paint: applies the stored theme as <html data-theme>, so the page
// never flashes light before @app/core starts. Same rules as @app/core's theme atom:
// localStorage 'theme' = 'light' | 'dark' | 'system' (default); 'system' follows prefers-color-scheme.
// An external file on purpose: the Content-Security-Policy forbids inline scripts.
(() => {
  let theme = 'light';
  try {
    const stored = (localStorage.getItem('theme') || '').replace(/^"|"$/g, '');
    if (stored === 'light' || stored === 'dark') theme = stored;
    else if (window.matchMedia?.('(prefers-color-scheme: dark)').matches) theme = 'dark';
  } catch {
    // storage blocked: fall back to the system preference
    if (window.matchMedia?.('(prefers-color-scheme: dark)').matches) theme = 'dark';
  }
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
})();
