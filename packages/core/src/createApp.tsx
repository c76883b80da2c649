import { createRoot } from 'react-dom/client';
import { App, type AppOptions } from './App';
import { installConsoleCapture } from './runtime/console';

export interface CreateAppOptions extends AppOptions {
  /** Element (or selector) to mount in; default '#root'. */
  root?: Element | string;
  /**
   * Production build (apps/web passes `import.meta.env.PROD`): console.log/info/debug/warn/error
   * are replaced at start by a bounded in-memory log (last 100 entries, shown in the error screen).
   */
  production?: boolean;
}

/** Mounts the shell: `createApp({ plugins, production: import.meta.env.PROD })`. */
export function createApp({ root = '#root', production = false, ...options }: CreateAppOptions): { unmount(): void } {
  if (production) installConsoleCapture({ silence: true });
  const element = typeof root === 'string' ? document.querySelector(root) : root;
  if (!element) throw new Error(`createApp: elemento ${String(root)} não encontrado.`);
  const reactRoot = createRoot(element);
  reactRoot.render(<App {...options} />);
  return { unmount: () => reactRoot.unmount() };
}
