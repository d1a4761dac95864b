/**
 * `oauthCredentialStore` as a zod schema, for the package root (the store
 * entry checks the setting with `isCredentialStoreSetting` and loads no zod).
 */
import { z } from "zod";
import { CREDENTIAL_STORE_SETTINGS } from "./create-credential-store.js";

export const CredentialStoreSettingSchema = z.enum(CREDENTIAL_STORE_SETTINGS);
