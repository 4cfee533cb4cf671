/** A minimal document for attachAvatar in Node: elements by id, video elements that record their settings. */
import type { DocumentLike, ElementLike, VideoElementLike } from "../config";

export class FakeVideoElement implements VideoElementLike {
  autoplay = false;
  playsInline = false;
  srcObject: unknown = null;
  style = { width: "", height: "" };
  attributes = new Map<string, string>();
  parent: FakeElement | undefined;

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  remove(): void {
    if (this.parent) this.parent.children = this.parent.children.filter((child) => child !== this);
    this.parent = undefined;
  }
}

export class FakeElement implements ElementLike {
  children: unknown[] = [];
  constructor(readonly id: string) {}
  appendChild(child: unknown): unknown {
    if (child instanceof FakeVideoElement) child.parent = this;
    this.children.push(child);
    return child;
  }
}

export class FakeDocument implements DocumentLike {
  readonly elements = new Map<string, FakeElement>();
  constructor(ids: string[] = []) {
    for (const id of ids) this.elements.set(id, new FakeElement(id));
  }
  getElementById(id: string): FakeElement | null {
    return this.elements.get(id) ?? null;
  }
  createElement(): FakeVideoElement {
    return new FakeVideoElement();
  }
}
