// JSX with the automatic runtime (react/jsx-runtime) in a package without "type".
// expect: react <ul><li>a</li><li>b</li></ul>
import { renderToStaticMarkup } from "react-dom/server";
const List = ({ items }: { items: string[] }) => <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;
console.log("react", renderToStaticMarkup(<List items={["a", "b"]} />));
