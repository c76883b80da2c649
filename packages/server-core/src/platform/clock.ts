/**
 * Where server-core reads the time for everything security-related: token `iat`/`exp`, session idle
 * and absolute lifetimes, sign-in throttling windows, recovery-link expiry. Injected through
 * `createServer({ clock })` so tests move time instead of sleeping. Milliseconds since the epoch.
 *
 * The audit trail keeps the database's own `now()`: it records when things really happened.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
