/**
 * Backend client of the avatar video API ({avatar_video_url}/api/v1): POST + `Authorization: Bearer <ks>` +
 * JSON. checkConfiguration tells whether the account can use the feature; lists are scoped by the ks's user.
 * All calls are reads, so the transport retries them.
 */
import {
  AVATAR_PATHS,
  AvatarListResponse,
  AvatarVideoListResponse,
  CheckConfigurationResponse,
  ListRequest,
  SOURCE_ONLY_CHECK,
  type AvatarRecord,
  type AvatarVideo,
  type ConfigurationCheck,
} from "../../contract/avatar";
import { describeIssues } from "../../contract/issues";
import { SvcValidationError } from "../core/errors";
import type { CallOptions } from "../transport";
import { ksOf, resolveClient, type AvatarClientOptions, type KsSource, type ResolvedClient } from "./options";
import { avatarRequest } from "./request";

export interface ConfigurationReport {
  /** Every check valid (computed here; the server's own `valid`, when sent, is kept in `serverValid`). */
  valid: boolean;
  /** The check the spec requires: `source-only-conversion-profile`. False when missing. */
  sourceOnlyConversionProfile: boolean;
  checks: ConfigurationCheck[];
  /** Names of the checks that are not valid. */
  failing: string[];
  serverValid: boolean | undefined;
}

export interface ListInput {
  pageSize?: number;
  pageIndex?: number;
  ks?: KsSource;
}

export class AvatarVideoApi {
  private readonly client: ResolvedClient;

  constructor(options: AvatarClientOptions) {
    this.client = resolveClient(options, "avatarVideoUrl");
  }

  async checkConfiguration(input: { ks?: KsSource } = {}, options?: CallOptions): Promise<ConfigurationReport> {
    const ks = await ksOf(input.ks, this.client.ks, "checkConfiguration");
    const response = await avatarRequest(
      this.client.transport,
      {
        op: "checkConfiguration",
        url: this.client.baseUrl + AVATAR_PATHS.checkConfiguration,
        authorization: `Bearer ${ks}`,
        json: {},
        schema: CheckConfigurationResponse,
      },
      options,
    );
    const failing = response.checks.filter((check) => !check.valid).map((check) => check.name);
    return {
      valid: failing.length === 0 && response.checks.length > 0,
      sourceOnlyConversionProfile: response.checks.some((check) => check.name === SOURCE_ONLY_CHECK && check.valid),
      checks: response.checks,
      failing,
      serverValid: response.valid,
    };
  }

  async listVideos(input: ListInput = {}, options?: CallOptions): Promise<{ objects: AvatarVideo[]; totalCount: number }> {
    const call = await this.listCall("listVideos", AVATAR_PATHS.listVideos, input);
    return avatarRequest(this.client.transport, { ...call, schema: AvatarVideoListResponse }, options);
  }

  async listAvatars(input: ListInput = {}, options?: CallOptions): Promise<{ objects: AvatarRecord[]; totalCount: number }> {
    const call = await this.listCall("listAvatars", AVATAR_PATHS.listAvatars, input);
    return avatarRequest(this.client.transport, { ...call, schema: AvatarListResponse }, options);
  }

  async close(): Promise<void> {
    if (this.client.ownsTransport) await this.client.transport.close();
  }

  private async listCall(op: "listVideos" | "listAvatars", path: string, input: ListInput) {
    const pager = ListRequest.safeParse({ pageSize: input.pageSize, pageIndex: input.pageIndex });
    if (!pager.success) throw new SvcValidationError(`${op}: ${describeIssues(pager.error.issues)}`);
    const ks = await ksOf(input.ks, this.client.ks, op);
    return { op, url: this.client.baseUrl + path, authorization: `Bearer ${ks}`, json: pager.data };
  }
}
