export { FakeClock, settle } from "./fakeClock";
export { FakePeerConnection, FAKE_OFFER_SDP } from "./fakePeerConnection";
export { FakeDocument, FakeElement, FakeVideoElement } from "./fakeDocument";
