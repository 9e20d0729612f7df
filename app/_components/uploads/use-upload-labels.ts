"use client";

import { useMemo } from "react";
import { useTranslations } from "next-intl";
import type { DirectUploadFieldLabels } from "./direct-upload-field";

/**
 * The direct-upload field's words in the page's language (the catalogs' `uploads`), for the borrower's
 * and the settlement agent's forms; needs the page's `NextIntlClientProvider`. `maxMb`: the limit a
 * file too large is told about.
 */
export function useUploadLabels(maxMb: number): DirectUploadFieldLabels {
  const t = useTranslations("uploads");
  return useMemo(
    () => ({
      files: t("files"),
      uploadingFile: (name) => t("uploadingFile", { name }),
      uploading: (percent) => t("uploading", { percent }),
      checking: t("checking"),
      ready: t("ready"),
      readyPages: (pages) => t("readyPages", { pages }),
      notUploaded: (error) => t("notUploaded", { error }),
      retry: t("retry"),
      retryFile: (name) => t("retryFile", { name }),
      wait: t("wait"),
      tooLarge: (name) => t("tooLarge", { name, mb: maxMb }),
    }),
    [t, maxMb],
  );
}
