// THE list of enabled plugins: one default import per line, then the array (scripts/bench.mjs
// parses this file to measure what each plugin adds to the first page). Order = menu and About order.
import about from '@app/about';
import dashboard from '@app/dashboard';
import type { PluginManifest } from '@app/core';

export const plugins: PluginManifest[] = [dashboard, about];
