{
  "name": "@app/__ID__",
  "version": "0.0.0",
  "description": "Compras: __TITLE_JSON__, numbered documents with items, a flow and a PDF (tag __TAG__).",
  "type": "module",
  "sideEffects": false,
  "exports": {
    ".": {
      "types": "./dist/web/index.d.ts",
      "import": "./dist/web/index.js"
    },
    "./server": {
      "types": "./dist/server/index.d.ts",
      "import": "./dist/server/index.js"
    },
    "./shared": {
      "types": "./dist/shared/index.d.ts",
      "import": "./dist/shared/index.js"
    }
  },
  "files": [
    "dist",
    "migrations"
  ],
  "scripts": {
    "build": "node -e \"require('fs').rmSync('dist', { recursive: true, force: true })\" && tsup",
    "api": "node ../../../scripts/api-report.mjs",
    "typecheck": "tsc -p tsconfig.json",
    "lint": "biome lint src test",
    "test": "vitest run"
  },
  "peerDependencies": {
    "@app/br": "workspace:^",
    "@app/core": "workspace:^",
    "@app/documents": "workspace:^",
    "@app/produtos": "workspace:^",
    "@app/registros": "workspace:^",
    "@app/server-core": "workspace:^",
    "@app/ui": "workspace:^",
    "@tanstack/react-query": "^5.90.0",
    "jotai": "^3.0.0",
    "react": "^19.0.0",
    "react-dom": "^19.0.0",
    "wouter": "^3.7.0",
    "zod": "^4.0.0"
  },
  "peerDependenciesMeta": {
    "@app/server-core": {
      "optional": true
    },
    "react": {
      "optional": true
    },
    "react-dom": {
      "optional": true
    }
  },
  "devDependencies": {
    "@app/br": "workspace:^",
    "@app/core": "workspace:^",
    "@app/documents": "workspace:^",
    "@app/produtos": "workspace:^",
    "@app/registros": "workspace:^",
    "@app/server-core": "workspace:^",
    "@app/ui": "workspace:^",
    "@testing-library/react": "^16.3.0",
    "@types/node": "^20.19.0",
    "@types/react": "^19.2.0",
    "@types/react-dom": "^19.2.0",
    "jotai": "^3.0.1",
    "jsdom": "^26.1.0",
    "ky": "^2.0.0",
    "react": "^19.2.0",
    "react-dom": "^19.2.0",
    "tsup": "^9.0.0",
    "vitest": "^5.1.0",
    "wouter": "^3.7.0",
    "zod": "^4.1.0"
  }
}
