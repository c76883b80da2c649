// What is known of an enabled server plugin: a leaf module (no imports), so the contexts, the
// runtime and the plugin contract can all name it without importing one another.

export interface PluginTag {
  /** Numeric permission tag (spec §6). */
  tag: number;
  /** Name shown when editing perfis, e.g. 'Memorandos'. */
  nome: string;
}

/** What other plugins (and the About page) may know about an enabled plugin. */
export interface ServerPluginInfo {
  id: string;
  version: string;
  core: string;
  dependsOn: string[];
  tags: PluginTag[];
}
