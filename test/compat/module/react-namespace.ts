// React without JSX: namespace import and createElement.
// expect: react <span title="t">x</span>
import * as React from "react";
import * as Server from "react-dom/server";
console.log("react", Server.renderToStaticMarkup(React.createElement("span", { title: "t" }, "x")));
