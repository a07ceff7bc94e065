/// Operations on whole journal files: verification and recovery.
public enum Journal {}
