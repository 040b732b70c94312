export enum Sign {
  Negative = -1,
  Zero = 0,
  Positive = 1,
}
export const sign = (n: number): Sign => (n > 0 ? Sign.Positive : n < 0 ? Sign.Negative : Sign.Zero);
