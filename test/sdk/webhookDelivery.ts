/** A notification body as the platform delivers it (an HTTP template's job), for the webhook receiver's tests. */
export const delivery = (jobId: number): string =>
  JSON.stringify({
    object: { id: "0_entry", objectType: "SvcMediaEntry" },
    eventType: "2",
    eventObjectType: "1",
    eventNotificationJobId: jobId,
    templateId: "12",
    templateName: "hook",
    objectType: "SvcHttpNotification",
  });
