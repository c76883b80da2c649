// A document's status flow, declared once in the plugin's shared code and used by both halves: the
// server enforces it (one route per transition, 409 when the state does not allow it, 403 when the
// person may not), the web shows the transitions the server says this person may perform now.

export type FlowTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface FlowStateDefinition {
  /** pt-BR label: 'Rascunho', 'Enviado'. */
  label: string;
  /** The document's content may be changed (and it may be deleted) in this state. */
  editable?: boolean;
  /** Colour of the status badge. */
  tone?: FlowTone;
}

export interface FlowTransitionDefinition<S extends string, R extends string> {
  /** States it may start from. */
  from: readonly S[];
  to: S;
  /** Button label: 'Enviar', 'Devolver'. */
  label: string;
  /** A reason is required (refusals, returns, cancellations): recorded in the audit trail. */
  reason?: boolean;
  /** Fewest characters of the reason (default 3: `reasonSchemaOf(min)`), e.g. 10 for a rejection. */
  reasonMin?: number;
  /**
   * Who may perform it: roles the server computes from the record and the person (e.g. 'origem' —
   * the person is in the origin centro de custo —, 'destino', 'autor'). Absent: anyone who may edit.
   */
  who?: readonly R[];
  /** Text of the confirmation dialog (default: `${label} ${documento} ${numero}?`). */
  confirm?: string;
  /** Button style. */
  tone?: 'primary' | 'default' | 'danger';
  /** pt-BR past tense for toasts and the timeline: 'enviado', 'devolvido'. */
  done: string;
}

export interface FlowDefinition<S extends string, R extends string, T extends string> {
  initial: NoInfer<S>;
  states: Record<S, FlowStateDefinition>;
  transitions: Record<T, FlowTransitionDefinition<NoInfer<S>, R>>;
}

export type FlowCheck = { ok: true } | { ok: false; status: 403 | 409; message: string };

export interface Flow<S extends string = string, R extends string = string, T extends string = string> extends FlowDefinition<S, R, T> {
  stateNames: S[];
  transitionNames: T[];
  isState(value: unknown): value is S;
  isTransition(value: unknown): value is T;
  /** The content may change (PUT, DELETE, line items) in this state. */
  isEditable(state: string): boolean;
  stateLabel(state: string): string;
  /**
   * Whether `roles` may perform `transition` on a record in `state`: 409 when the state does not
   * allow it (pt-BR message naming the state), 403 when the person's roles do not.
   */
  check(transition: T, state: string, roles: ReadonlySet<string>): FlowCheck;
  /** Transitions these roles may perform from `state`, in declaration order. */
  available(state: string, roles: ReadonlySet<string>): T[];
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** Declares a flow; throws at load time when it refers to a state it does not declare. */
export function defineFlow<S extends string, R extends string = never, T extends string = string>(definition: FlowDefinition<S, R, T>): Flow<S, R, T> {
  const stateNames = Object.keys(definition.states) as S[];
  const transitionNames = Object.keys(definition.transitions) as T[];
  const states = new Set<string>(stateNames);
  if (!states.has(definition.initial)) throw new Error(`defineFlow: initial state '${definition.initial}' is not declared.`);
  for (const name of transitionNames) {
    const t = definition.transitions[name];
    for (const s of [...t.from, t.to]) {
      if (!states.has(s)) throw new Error(`defineFlow: transition '${name}' refers to undeclared state '${s}'.`);
    }
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`defineFlow: transition name '${name}' must be a lower-case path segment.`);
  }
  const isState = (value: unknown): value is S => typeof value === 'string' && states.has(value);
  const stateLabel = (state: string) => (isState(state) ? definition.states[state].label : state);
  const check = (transition: T, state: string, roles: ReadonlySet<string>): FlowCheck => {
    const t = definition.transitions[transition];
    if (!t.from.includes(state as S)) {
      return {
        ok: false,
        status: 409,
        message: `Não é possível ${lowerFirst(t.label)}: o documento está ${lowerFirst(stateLabel(state))}.`,
      };
    }
    if (t.who && !t.who.some((r) => roles.has(r))) {
      return { ok: false, status: 403, message: `Você não pode ${lowerFirst(t.label)} este documento.` };
    }
    return { ok: true };
  };
  return {
    ...definition,
    stateNames,
    transitionNames,
    isState,
    isTransition: (value: unknown): value is T => typeof value === 'string' && Object.hasOwn(definition.transitions, value),
    isEditable: (state) => isState(state) && definition.states[state].editable === true,
    stateLabel,
    check,
    available: (state, roles) => transitionNames.filter((name) => check(name, state, roles).ok),
  };
}
