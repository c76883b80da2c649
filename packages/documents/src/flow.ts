// A document's status flow, declared once in the plugin's shared code and used by both halves: the
// server enforces it (one route per transition, 409 when the state does not allow it, 403 when the
// person may not), the web shows the transitions the server says this person may perform now.

export type FlowTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface FlowStateDefinition {
  /** pt-BR label: 'Rascunho', 'Enviado'. */
  label: string;
  /** The document's content may be changed in this state (by its authors: see FlowAuthorship). */
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
  /**
   * Performing it makes the person an author of the document ('remetente'), e.g. enviar: whoever
   * sends a document answers for its content as whoever wrote it (segregação de funções).
   */
  authoring?: boolean;
  /**
   * An independent act on someone else's work (aceitar, aprovar, reprovar, devolver): never performed
   * by an author of the document — who created, changed or sent it, or wrote a document it was made
   * from (Lei 14.133, art. 7º §1º). The document kit enforces it (403) and never offers it to them.
   */
  independent?: boolean;
}

export interface FlowDefinition<S extends string, R extends string, T extends string> {
  initial: NoInfer<S>;
  states: Record<S, FlowStateDefinition>;
  transitions: Record<T, FlowTransitionDefinition<NoInfer<S>, R>>;
}

export type FlowCheck = { ok: true } | { ok: false; status: 403 | 409; message: string; code?: 'segregacao' | 'rascunho_alheio' };

/**
 * What the person is to the document, for segregation of duties (computed by the document kit from
 * its authors table): `author` — any kind of author (wrote, changed or sent it, or wrote a source
 * document); `mayEditDraft` — wrote it (or changed/sent it) or holds the permission to edit other
 * people's drafts. Without it, `check` applies the `who` roles only.
 */
export interface FlowAuthorship {
  author: boolean;
  mayEditDraft: boolean;
  /** How messages name the document: 'requisição' (feminine) → 'esta requisição … aprová-la'. */
  documento?: { nome: string; feminino?: boolean };
}

export interface Flow<S extends string = string, R extends string = string, T extends string = string> extends FlowDefinition<S, R, T> {
  stateNames: S[];
  transitionNames: T[];
  isState(value: unknown): value is S;
  isTransition(value: unknown): value is T;
  /** The content may change (PUT, line items) in this state. */
  isEditable(state: string): boolean;
  stateLabel(state: string): string;
  /**
   * Whether `roles` may perform `transition` on a record in `state`: 409 when the state does not
   * allow it (pt-BR message naming the state), 403 when the person's roles do not.
   */
  check(transition: T, state: string, roles: ReadonlySet<string>, authorship?: FlowAuthorship): FlowCheck;
  /** Transitions these roles may perform from `state`, in declaration order. */
  available(state: string, roles: ReadonlySet<string>, authorship?: FlowAuthorship): T[];
  /**
   * The transitions that cancel a draft: from the initial state to a final state (no transition
   * leaves it), with a required reason. A numbered document is never deleted, it is cancelled.
   */
  cancelTransitions(): T[];
}

/** 'Aprovar' → 'aprová-la', 'Devolver' → 'devolvê-lo', 'Aceitar' → 'aceitá-lo' (one-word labels). */
function withPronoun(label: string, feminino: boolean): string | null {
  const verb = label.trim().toLowerCase();
  const pronoun = feminino ? 'la' : 'lo';
  const m = /^([a-zçãõáéíóúâêô]+)(ar|er|ir)$/.exec(verb);
  if (!m) return null;
  const stem = m[1]!;
  if (m[2] === 'ar') return `${stem}á-${pronoun}`;
  if (m[2] === 'er') return `${stem}ê-${pronoun}`;
  return `${stem}i-${pronoun}`;
}

/** 403 for an author who tries an independent transition. */
export function segregationMessage(label: string, documento: { nome: string; feminino?: boolean } = { nome: 'documento' }): string {
  const feminino = documento.feminino === true;
  const este = `${feminino ? 'esta' : 'este'} ${documento.nome}`;
  const acao = withPronoun(label, feminino) ?? `${lowerFirst(label)} ${feminino ? 'esta' : 'este'} ${documento.nome}`;
  return `Quem escreveu, alterou ou enviou ${este} não pode ${acao} (segregação de funções).`;
}

/** 403 for someone who is not an author of a draft and lacks the permission to edit other people's drafts. */
export function otherDraftMessage(): string {
  return 'Só quem criou este rascunho pode alterá-lo, enviá-lo ou cancelá-lo (ou quem tem a permissão "Editar rascunhos de outras pessoas").';
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
    if (t.independent && t.authoring) throw new Error(`defineFlow: transition '${name}' cannot be both independent and authoring.`);
  }
  const isState = (value: unknown): value is S => typeof value === 'string' && states.has(value);
  const stateLabel = (state: string) => (isState(state) ? definition.states[state].label : state);
  const isEditable = (state: string) => isState(state) && definition.states[state].editable === true;
  const check = (transition: T, state: string, roles: ReadonlySet<string>, authorship?: FlowAuthorship): FlowCheck => {
    const t = definition.transitions[transition];
    if (!t.from.includes(state as S)) {
      return {
        ok: false,
        status: 409,
        message: `Não é possível ${lowerFirst(t.label)}: o documento está ${lowerFirst(stateLabel(state))}.`,
      };
    }
    // before `who`: an author may also lack the role, and this is the reason that tells them why
    if (authorship && t.independent && authorship.author) {
      return { ok: false, status: 403, code: 'segregacao', message: segregationMessage(t.label, authorship.documento) };
    }
    if (t.who && !t.who.some((r) => roles.has(r))) {
      return { ok: false, status: 403, message: `Você não pode ${lowerFirst(t.label)} este documento.` };
    }
    // a draft (editable state) is sent or cancelled by who wrote it, as it is edited (independent acts excepted)
    if (authorship && !t.independent && isEditable(state) && !authorship.mayEditDraft) {
      return { ok: false, status: 403, code: 'rascunho_alheio', message: otherDraftMessage() };
    }
    return { ok: true };
  };
  const outgoing = new Set<string>(transitionNames.flatMap((name) => definition.transitions[name].from));
  return {
    ...definition,
    stateNames,
    transitionNames,
    isState,
    isTransition: (value: unknown): value is T => typeof value === 'string' && Object.hasOwn(definition.transitions, value),
    isEditable,
    stateLabel,
    check,
    available: (state, roles, authorship) => transitionNames.filter((name) => check(name, state, roles, authorship).ok),
    cancelTransitions: () =>
      transitionNames.filter((name) => {
        const t = definition.transitions[name];
        return t.reason === true && t.from.includes(definition.initial) && !isEditable(t.to) && !outgoing.has(t.to);
      }),
  };
}
