// Built as a file of its own (dist/language-client.cjs): vscode-languageclient is most of the
// extension's code, and it is loaded only when a package.json or rtfig.toml is opened.
export { LanguageClient, TransportKind } from "vscode-languageclient/node";
