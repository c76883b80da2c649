{
  "extends": "../../../tsconfig.base.json",
  "compilerOptions": { "types": ["node"] },
  "include": ["src", "test", "../../../globals.d.ts"]
}
