print("mailbox")
