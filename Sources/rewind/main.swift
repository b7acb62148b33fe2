print("rewind: the log tool arrives with the audit issue")
