// The server plugins enabled in this app (the web app lists the same plugins in apps/web/src/plugins.ts).
import about from '@app/about/server';
import dashboard from '@app/dashboard/server';
import type { ServerPlugin } from '@app/server-core';

export const serverPlugins: readonly ServerPlugin[] = [dashboard, about];
