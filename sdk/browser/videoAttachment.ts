/** attachAvatar's DOM work: one <video> (autoplay, playsinline, 100% x 100%) in the container, fed the stream. */
import type { DocumentLike, ElementLike, VideoElementLike } from "./config";
import { invalidConfiguration } from "./errors";

export function createVideoIn(doc: DocumentLike | undefined, containerId: string, stream: unknown): VideoElementLike {
  const container = containerOf(doc, containerId);
  const video = (doc as DocumentLike).createElement("video");
  video.autoplay = true;
  video.playsInline = true;
  video.setAttribute("playsinline", "");
  video.setAttribute("autoplay", "");
  video.style.width = "100%";
  video.style.height = "100%";
  if (stream !== undefined) video.srcObject = stream;
  container.appendChild(video);
  return video;
}

/** The container element, or INVALID_CONFIGURATION naming the id (createSession checks it before any call). */
export function containerOf(doc: DocumentLike | undefined, containerId: string): ElementLike {
  if (!doc) throw invalidConfiguration("attachAvatar needs a document (none in this environment; inject one)");
  const container = doc.getElementById(containerId);
  if (!container) throw invalidConfiguration(`attachAvatar: no element with id "${containerId}"`, { field: "videoContainerId" });
  return container;
}
