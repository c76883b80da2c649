// Child process of local-registry.mjs: runs verdaccio with the given config file on 127.0.0.1 and
// a free port chosen by the system, prints `VERDACCIO_PORT=<port>`, stops on SIGTERM.
import { runServer } from 'verdaccio';

const app = await runServer(process.argv[2]);
const server = app.listen(0, '127.0.0.1', () => console.log(`VERDACCIO_PORT=${server.address().port}`));
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
