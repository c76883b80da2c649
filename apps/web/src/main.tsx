import '@app/ui/styles.css';
import { createApp } from '@app/core';
import { plugins } from './plugins';

createApp({
  plugins,
  // production: console output goes to the in-memory log shown by the error screen
  production: import.meta.env.PROD,
});
