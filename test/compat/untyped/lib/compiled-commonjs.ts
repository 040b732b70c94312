// CommonJS as tsc emits it for `export default` and `export const`.
Object.defineProperty(exports, "__esModule", { value: true });
exports.named = 1;
exports.default = function hello() {
  return "hi";
};
