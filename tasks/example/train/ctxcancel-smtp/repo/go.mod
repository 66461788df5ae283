module example.com/mailrelay

go 1.26
