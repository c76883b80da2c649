// The perfil checklist: every tag declared by the enabled server plugins, plus tags the perfil already
// has and tags the signed-in user holds (named from the specification when no plugin declares them).
import { isExemptTag, type TagInfo, tagNome } from '../shared/index';

export interface TagOption {
  tag: number;
  nome: string;
  /** The signed-in user holds it (only those can be added to a perfil). */
  held: boolean;
}

export function tagOptions(declared: readonly TagInfo[], perfilTags: readonly number[], held: readonly number[]): TagOption[] {
  const all = new Set<number>([...declared.map((t) => t.tag), ...perfilTags, ...held]);
  return [...all]
    .filter((t) => !isExemptTag(t))
    .sort((a, b) => a - b)
    .map((tag) => ({ tag, nome: tagNome(tag, declared), held: held.includes(tag) }));
}
