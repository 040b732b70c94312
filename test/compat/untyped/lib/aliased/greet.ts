// Reached only through an alias given to tsconfig-paths (tsconfig-paths-register.ts).
export function greet(name: string): string {
  return `hello ${name} from an alias`;
}
