/**
 * The provider functions of the native plugin for TypeScript programs (`pulumi-svc/native`), each in its two forms:
 * `getAppToken(args)` (a Promise, plain values) and `getAppTokenOutput(args)` (an Output, which keeps the result's
 * secrets secret: use it for getAppToken's `token`). The plugin serves them (plugin/invoke.ts); the definitions
 * (provider/definitions/get*.ts) say what each argument and result field means. Only types are imported from
 * them: a program loads no zod and no runtime.
 */
import * as pulumi from "@pulumi/pulumi";
import type { GetAppTokenArgs, GetAppTokenResult } from "../definitions/getAppToken";
import type { AppTokenSummary, GetAppTokensArgs, GetAppTokensResult } from "../definitions/getAppTokens";
import type { GetNotificationTemplateArgs, GetNotificationTemplateResult } from "../definitions/getNotificationTemplate";
import type { GetSystemTemplatesArgs, GetSystemTemplatesResult, SystemTemplate } from "../definitions/getSystemTemplates";
import { typeToken } from "../resources/typeToken";

export type {
  AppTokenSummary,
  GetAppTokenArgs,
  GetAppTokenResult,
  GetAppTokensArgs,
  GetAppTokensResult,
  GetNotificationTemplateArgs,
  GetNotificationTemplateResult,
  GetSystemTemplatesArgs,
  GetSystemTemplatesResult,
  SystemTemplate,
};

/** The arguments of an Output form: each may be an Input. */
export type InputsOf<Args> = { [K in keyof Args]: pulumi.Input<Args[K]> };

export function getAppToken(args: GetAppTokenArgs, opts?: pulumi.InvokeOptions): Promise<GetAppTokenResult> {
  return pulumi.runtime.invoke(typeToken("getAppToken"), args, opts);
}
export function getAppTokenOutput(args: InputsOf<GetAppTokenArgs>, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetAppTokenResult> {
  return pulumi.runtime.invokeOutput(typeToken("getAppToken"), args, opts);
}

export function getAppTokens(args: GetAppTokensArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetAppTokensResult> {
  return pulumi.runtime.invoke(typeToken("getAppTokens"), args, opts);
}
export function getAppTokensOutput(args: InputsOf<GetAppTokensArgs> = {}, opts?: pulumi.InvokeOutputOptions): pulumi.Output<GetAppTokensResult> {
  return pulumi.runtime.invokeOutput(typeToken("getAppTokens"), args, opts);
}

export function getNotificationTemplate(args: GetNotificationTemplateArgs, opts?: pulumi.InvokeOptions): Promise<GetNotificationTemplateResult> {
  return pulumi.runtime.invoke(typeToken("getNotificationTemplate"), args, opts);
}
export function getNotificationTemplateOutput(
  args: InputsOf<GetNotificationTemplateArgs>,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetNotificationTemplateResult> {
  return pulumi.runtime.invokeOutput(typeToken("getNotificationTemplate"), args, opts);
}

export function getSystemTemplates(args: GetSystemTemplatesArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetSystemTemplatesResult> {
  return pulumi.runtime.invoke(typeToken("getSystemTemplates"), args, opts);
}
export function getSystemTemplatesOutput(
  args: InputsOf<GetSystemTemplatesArgs> = {},
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetSystemTemplatesResult> {
  return pulumi.runtime.invokeOutput(typeToken("getSystemTemplates"), args, opts);
}
