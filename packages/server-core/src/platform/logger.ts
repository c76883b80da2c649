/** Minimal logger used by server-core (console by default; pass your own to createServer). */
export interface Logger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export const consoleLogger: Logger = {
  info: (message, ...details) => console.info(`[compras] ${message}`, ...details),
  warn: (message, ...details) => console.warn(`[compras] ${message}`, ...details),
  error: (message, ...details) => console.error(`[compras] ${message}`, ...details),
};

export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
