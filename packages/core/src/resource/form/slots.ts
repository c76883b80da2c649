import type { ReactNode } from 'react';
import type { SlotContent } from '../types';

/** A slot's content: a node, or a render function given the slot's arguments. */
export function renderSlot<A extends unknown[]>(slot: SlotContent<A> | undefined, ...args: A): ReactNode {
  return typeof slot === 'function' ? (slot as (...a: A) => ReactNode)(...args) : (slot ?? null);
}
