// RewindLog: the durable file journal. Filled by the "RewindLog" issue.
