// @app/core: the web plugin contract and the app shell. See docs/interfaces.md.

// contract
export {
  CORE_VERSION,
  CONTROLE_INTERNO_TAG,
  EXEMPT_TAGS,
  definePlugin,
  type PluginDefinition,
  type PluginIdentity,
  type PluginManifest,
  type PluginMenu,
  type PluginMenuCount,
  type PluginMount,
  type PluginRoute,
  pluginMounts,
  type SeveralMounts,
  type SingleMount,
} from './contract';
export { ADMIN_TAG } from './tags';

// app
export { App, type AppOptions, UPDATE_MESSAGE, UPDATE_TITLE } from './App';
export { createApp, type CreateAppOptions } from './createApp';
export {
  type ComposedApp,
  composePlugins,
  buildMenu,
  hasTag,
  isExemptTag,
  type MenuEntry,
  PluginCompositionError,
  type ResolvedMount,
  type ResolvedRoute,
  RESERVED_PATHS,
  type RouteAccess,
  routeAccess,
} from './compose';

// hooks and state
export { useApi, useHasTag, usePlugins, useRegisterRoute, useRouteInfo, useSession } from './hooks';
export {
  composedAppAtom,
  devtoolsOpenAtom,
  fatalErrorAtom,
  getCoreStore,
  routeInfoAtom,
  sessionAtom,
  sessionStatusAtom,
  tokenAtom,
} from './store';
export {
  checkToken,
  decideGuard,
  type GuardDecision,
  isAuthenticatedAtom,
  peekRedirect,
  rememberRedirect,
  setSignedOut,
  takeRedirect,
  type TokenCheck,
} from './auth';
export { loadSession } from './session';
export { signOut } from './signOut';
export type {
  ApiErrorBody,
  DevtoolsPolicy,
  EntidadeRef,
  ResolvedTheme,
  RouteInfo,
  Session,
  SessionConfig,
  SessionEntidade,
  SessionUser,
  SignInResponse,
  ThemePreference,
  VersionResponse,
} from './types';

// api and data
export { api, apiErrorBody, apiErrorMessage, apiErrorStatus, createApi } from './api';
export { LoadErrorAlert, type LoadErrorAlertProps } from './errors/LoadErrorAlert';
export { QUERY_DEFAULTS } from './queryDefaults';
export { queryKeys } from './queryKeys';
export { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

// toasts
export { MAX_VISIBLE_TOASTS, TOAST_DURATIONS, type ToastItem, type ToastKind, type ToastOptions, toast, toastsAtom } from './toast/queue';

// runtime
export { bridge, type DesktopShell } from './runtime/bridge';
export { CONSOLE_LOG_LIMIT, type ConsoleEntry, getConsoleLog, installConsoleCapture } from './runtime/console';
export { DEVTOOLS_POLL_MS, looksLikeDevtoolsOpen, startDevtoolsDetection } from './runtime/devtools';
export {
  ENTER_ALLOWED_INPUT_TYPES,
  ENTER_BLOCKED_INPUT_TYPES,
  installEnterBlocking,
  shouldBlockEnter,
} from './runtime/enterBlocking';
export { applyTheme, resolvedThemeAtom, resolveTheme, systemPrefersDarkAtom, themeAtom } from './runtime/theme';
export { startVersionPoll, VERSION_POLL_MS } from './runtime/versionPoll';
export { refreshDelayMs, startTokenRefresh } from './runtime/tokenRefresh';

// screens
export { ErrorScreen, type ErrorScreenProps } from './errors/ErrorScreen';
export { type ErrorLog, buildErrorLog } from './errors/log';
export { reportFatal } from './errors/fatal';
export { PermissionGate, useRouteAccess, useSomenteLeitura } from './routing/RouteMeta';
export { Guard } from './routing/Guard';

// resource kit (registries): list/new/edit pages from a declaration
export * from './resource';

// audit trail: timelines of records, the wording of actions and changes
export * from './audit';

// tests
export { resetCoreState } from './testing';
