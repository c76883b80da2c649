// First step of `pnpm start` and `pnpm test`: the Node.js the project needs (package.json engines,
// >= 22.12), with what to do when it is older (README, "The two commands").
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `[compras] Node.js ${process.versions.node} é antigo demais: o projeto precisa do Node.js 22.12 ou mais novo (recomendado: 24 LTS).\n` +
      '[compras] Instale pelo npm: npm i -g node@24  (ou, sem mexer no Node do sistema: npm i --prefix ~/.node24 node@24 e ponha ~/.node24/node_modules/.bin no início do PATH), ou use nvm install 24.',
  );
  process.exit(1);
}
