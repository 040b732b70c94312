// An ES module that says what require() of it returns (Node 24: the "module.exports" export).
class Point {
  x: number;
  constructor(x: number) {
    this.x = x;
  }
}
export { Point as "module.exports" };
export const unused = "only the namespace has this";
