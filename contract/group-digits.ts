/**
 * A count with its thousands grouped the way the contract's messages write them ("20,000").
 * Not `toLocaleString('en-US')`: that builds an ICU number formatter on every call (about 0.7 ms),
 * and the contract's field declarations call this while their modules are evaluated, which is on
 * the path of every page's first paint (a phone's first long task).
 */
export function groupDigits(count: number): string {
  const [whole = '', fraction] = String(count).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
