// Run with: npx rt examples/hello.ts [name]
interface Greeting {
  name: string;
  runtime: string;
}

function greet({ name, runtime }: Greeting): string {
  return `Hello, ${name}! This is TypeScript running on ${runtime}, with no build step.`;
}

console.log(greet({ name: process.argv[2] ?? "world", runtime: `rt ${rt.version}` }));
