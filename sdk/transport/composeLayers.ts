/** Stack layers on a send function, outermost first, checking each piece where they join (as undici's compose does). */
import type { Layer, Send } from "./exchange";

export function composeLayers(...layers: Layer[]): (send: Send) => Send {
  for (const [index, layer] of layers.entries()) {
    if (typeof layer !== "function") throw new TypeError(`composeLayers: layer ${index} is not a function (next) => send`);
  }
  return (send) =>
    layers.reduceRight<Send>((next, layer, index) => {
      const wrapped = layer(next);
      if (typeof wrapped !== "function") throw new TypeError(`composeLayers: layer ${index} did not return a send function`);
      return wrapped;
    }, send);
}
